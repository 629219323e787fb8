#!/bin/bash
# Call 7 (H200; not run: ../2026-11-28-windowed-forty call 1 answered it):
# why the set sieve runs slower in the whole bench than alone (call 4
# against call 5).  main's kernel_bench,
# the whole bench and then "AC 200 rare" alone, with the SM clock and
# power sampled every 100 ms through both; then Nsight Compute of the set
# sieve alone.  Carry: a build of main (test/kernels/compare-revs build
# .carry/s37 HEAD, request_bench removed, tar -cJf .carry/s37.txz -C
# .carry s37); run with carry [".carry/s37.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
tmp=$(mktemp -d)
tar -xJf .carry/s37.txz -C "$tmp" || exit 1
bench=$tmp/s37/HEAD/kernel_bench
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu \
	--format=csv -lms 100 > $OUT/clocks.csv &
smi=$!
date +%T.%N > $OUT/marks.txt
timeout 200 "$bench" 2.1 > $OUT/bench-whole.txt 2>&1
date +%T.%N >> $OUT/marks.txt
timeout 60 "$bench" 2.1 "AC 200 rare" > $OUT/bench-alone.txt 2>&1
date +%T.%N >> $OUT/marks.txt
kill $smi
grep -h "AC 200 rare\|AC 200 letters\|plain" $OUT/bench-whole.txt $OUT/bench-alone.txt
timeout 90 ncu --clock-control none -k regex:set_sieve -c 1 --section SpeedOfLight \
	--section WarpStateStats --section Occupancy "$bench" 2.1 "AC 200 rare" \
	> $OUT/ncu-alone.txt 2>&1
grep -E "Duration|Throughput|Occupancy|SM Frequency" $OUT/ncu-alone.txt | head -12
