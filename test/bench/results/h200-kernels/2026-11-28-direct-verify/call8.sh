#!/bin/bash
# Call 8 (H200): the set sieve as kept (8f2de7a: span staged at once, no
# poll, only before the wide and classed tables) against main before it
# (defe877): kernel_test of 8f2de7a, the whole kernel_bench, two rounds of
# each, then Nsight Compute's source counters of the set sieve on "AC 200
# rare" (0.5 GB).  Built here:
#   test/kernels/compare-revs build .carry/s30 defe877 HEAD
#   (request_bench removed), tar -cJf .carry/s30.txz -C .carry s30;
# run with carry [".carry/s30.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
tmp=$(mktemp -d)
tar -xJf .carry/s30.txz -C "$tmp" || exit 1
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 150 "$tmp/s30/HEAD/kernel_test" > $OUT/kernel_test-8f2de7a.txt 2>&1
echo "kernel_test 8f2de7a: $(grep -E '^# [0-9]+ passed' $OUT/kernel_test-8f2de7a.txt)"
grep -E "^not ok|planned" $OUT/kernel_test-8f2de7a.txt | head -12
gzip -9 -n -f $OUT/kernel_test-8f2de7a.txt
OUT=$OUT timeout 240 test/kernels/compare-revs bench "$tmp/s30" | tee $OUT/log-tail.txt
grep -h "AC \|plain" $OUT/bench-HEAD-1.txt
timeout 90 ncu --clock-control none -k regex:set_sieve -c 1 --import-source yes \
	--section SourceCounters --section WarpStateStats --section SpeedOfLight \
	--section ComputeWorkloadAnalysis -o $OUT/set-sieve \
	"$tmp/s30/HEAD/kernel_bench" 0.5 "AC 200 rare" > $OUT/ncu-set-sieve.txt 2>&1
ncu --import $OUT/set-sieve.ncu-rep --page source --csv --print-source sass \
	> $OUT/source-set-sieve.csv 2>&1
grep -E "Throughput|Busy|Issue|Pipe" $OUT/ncu-set-sieve.txt | head -12
cd $OUT && tar -czf outputs.tgz --remove-files ncu-*.txt source-*.csv *.ncu-rep
