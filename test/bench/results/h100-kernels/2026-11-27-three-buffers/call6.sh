#!/bin/bash
# Call 6: main (three slice buffers) against studies/entry-stage: each
# lane's chunk index entry copied into shared memory with the chunk's
# first slice (cp.async), so that resolving a chunk's hits does not wait
# on its load.  kernel_test of both, the stream classes two rounds each
# in one run, Nsight Compute's warp states on rows pass for both.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tar -xJf .carry/cmp.txz -C /tmp
mkdir -p /tmp/out
OUT=/tmp/out timeout 300 test/kernels/compare-revs run /tmp/cmp "multi-segment,ILIKE libc,rows pass,AC 1,AC 2,AC 20,AC 40,DFA,DFA wide" | tee $OUT/log-tail.txt
for rev in main study-entry-stage; do
	f=/tmp/out/ncu-$rev-rows-pass.txt
	timeout 45 ncu --clock-control none --section SpeedOfLight --section Occupancy --section WarpStateStats \
		--section LaunchStats --metrics smsp__inst_executed.sum \
		-k regex:"stream_kernel" -c 1 /tmp/cmp/$rev/kernel_bench 0.5 "rows pass" > $f 2>&1
	echo "== $rev rows pass"; grep -hE "\(.*\)x\(|Duration|DRAM Throughput|Registers Per|Achieved Occupancy|inst_executed|Warp Cycles Per Issued|cycles being stalled" $f | cut -c1-150 | head -12
done | tee -a $OUT/log-tail.txt
tar -czf $OUT/outputs.tgz -C /tmp out
