#!/bin/bash
# Call 1 (H200): main at 53bb2dd (the windowed table for 40 literals, the
# set sieve's keys by their rarity) -- kernel_test, then why the set
# sieve ("AC 200 rare") runs slower in the whole bench than alone
# (listed-lanes calls 4 and 5): the whole bench; every class named, which
# is the whole bench's first part without the adversarial column (only
# the whole bench builds and uploads it); "AC 200 rare" alone; the SM
# clock and power sampled every 100 ms through the three; then Nsight
# Compute of the set sieve's first launch alone and in the whole bench.
# Carry: test/kernels/compare-revs build .carry/s37 HEAD, request_bench
# removed, tar -cJf .carry/s37.txz -C .carry s37; run with carry
# [".carry/s37.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
tmp=$(mktemp -d)
tar -xJf .carry/s37.txz -C "$tmp" || exit 1
bin=$tmp/s37/HEAD
cat "$bin/rev"
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 120 "$bin/kernel_test" > $OUT/kernel_test.txt 2>&1
tail -1 $OUT/kernel_test.txt
grep "^not ok" $OUT/kernel_test.txt | head
all="literal short,literal rare,literal long,multi-segment,underscore,ILIKE,ILIKE libc,prefix,rows pass,AC 1,AC 2,AC 20,AC 200,AC 40,DFA,DFA wide,DFA sieved,literal pair,AC 200 letters,AC 200 rare"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu \
	--format=csv -lms 100 > $OUT/clocks.csv &
smi=$!
date +%T.%N > $OUT/marks.txt
timeout 150 "$bin/kernel_bench" 2.1 > $OUT/bench-whole.txt 2>&1
date +%T.%N >> $OUT/marks.txt
timeout 100 "$bin/kernel_bench" 2.1 "$all" > $OUT/bench-named.txt 2>&1
date +%T.%N >> $OUT/marks.txt
timeout 40 "$bin/kernel_bench" 2.1 "AC 200 rare" > $OUT/bench-alone.txt 2>&1
date +%T.%N >> $OUT/marks.txt
kill $smi
for f in whole named alone; do
	echo "== $f"; grep -h "^AC\|^DFA wide\|literal short\|plain" $OUT/bench-$f.txt | head -12
done
timeout 60 ncu --clock-control none -k regex:set_sieve -c 1 --section SpeedOfLight \
	--section WarpStateStats --section Occupancy --section MemoryWorkloadAnalysis \
	"$bin/kernel_bench" 2.1 "AC 200 rare" > $OUT/ncu-alone.txt 2>&1
grep -E "Duration|Throughput|SM Frequency|L2 Hit|Mem Busy" $OUT/ncu-alone.txt | head -12
timeout 170 ncu --clock-control none -k regex:set_sieve -c 1 --section SpeedOfLight \
	--section WarpStateStats --section Occupancy --section MemoryWorkloadAnalysis \
	"$bin/kernel_bench" 2.1 > $OUT/ncu-whole.txt 2>&1
grep -E "Duration|Throughput|SM Frequency|L2 Hit|Mem Busy" $OUT/ncu-whole.txt | head -12
