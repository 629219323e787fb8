#!/bin/bash
# Call 3 (H200): main (9c683c5, the root's twin kept) against
# prefetch-place (the chunk index entry and the next chunk's row loaded
# before a chunk is stepped, where the lane's last chunk had hits) and
# prefetch-entry (the entry alone): kernel_test of the two, the classes
# with hits (and two with few, for the loads' cost), two rounds; Nsight
# Compute's source counters of rows pass for prefetch-place; and
# ldgsts_probe's copies under Nsight Compute (the stage copies' 8
# wavefronts: the pattern's or cp.async's?).  Built here:
#   test/kernels/compare-revs build .carry/s23a main prefetch-place prefetch-entry
#   tar -cJf .carry/s23a.txz -C .carry s23a
#   nvcc -O3 -arch=sm_90 ldgsts_probe.cu -o .carry/probe/ldgsts_probe
# run with carry [".carry/s23a.txz", ".carry/probe"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
tmp=$(mktemp -d)
tar -xJf .carry/s23a.txz -C $tmp
nvidia-smi --query-gpu=name --format=csv,noheader
for rev in prefetch-place prefetch-entry; do
	timeout 120 $tmp/s23a/$rev/kernel_test > $OUT/kernel_test-$rev.txt 2>&1
	echo "kernel_test $rev: $(grep -E '^# [0-9]+ passed' $OUT/kernel_test-$rev.txt)"
	gzip -9 $OUT/kernel_test-$rev.txt
done
timeout 300 test/kernels/compare-revs bench $tmp/s23a "rows pass,AC 1,AC 2,AC 20,AC 200,AC 200 letters,AC 40,multi-segment,DFA,ILIKE libc,underscore"
f=$OUT/prefetch-place-rows-pass
timeout 45 ncu --clock-control none --section SourceCounters -k regex:stream_kernel -c 1 \
	-o $f $tmp/s23a/prefetch-place/kernel_bench 0.5 "rows pass" > $f.log 2>&1
timeout 30 ncu --import $f.ncu-rep --page source --csv --print-source sass 2>/dev/null | gzip -9 > $f-sass.csv.gz
rm -f $f.ncu-rep
for k in 0 1 2 3 4; do
	f=$OUT/probe-$k
	timeout 40 ncu --clock-control none --section SourceCounters --launch-skip $k --launch-count 1 \
		-o $f .carry/probe/ldgsts_probe > $f.log 2>&1
	timeout 30 ncu --import $f.ncu-rep --page source --csv --print-source sass 2>/dev/null | gzip -9 > $f-sass.csv.gz
	rm -f $f.ncu-rep
	tail -1 $f.log
done
