#!/bin/bash
# Call 2: main (b8ada21) against three studies of how many warps and
# slices an SM keeps in flight (studies/): threads-1280 and threads-1536
# (the stream kernel bounded to 48 or 40 registers, 40 or 48 warps an SM
# in 256-thread blocks), three-buffers (three slice buffers a warp, two
# slices in flight, shapes of three buffers first).  kernel_test of each,
# the stream classes two rounds each in one run, then Nsight Compute's
# warp states on rows pass for each.  Outputs packed in outputs.tgz.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tar -xJf .carry/cmp.txz -C /tmp
mkdir -p /tmp/out
OUT=/tmp/out timeout 400 test/kernels/compare-revs run /tmp/cmp "multi-segment,ILIKE libc,rows pass,AC 20,AC 40,AC 200,DFA,DFA wide" | tee $OUT/log-tail.txt
for rev in main study-threads-1280 study-threads-1536 study-three-buffers; do
	f=/tmp/out/ncu-$rev-rows-pass.txt
	timeout 45 ncu --clock-control none --section SpeedOfLight --section Occupancy --section WarpStateStats \
		--section SchedulerStats --section LaunchStats --section MemoryWorkloadAnalysis \
		--metrics l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed.sum \
		-k regex:"stream_kernel" -c 1 /tmp/cmp/$rev/kernel_bench 0.5 "rows pass" > $f 2>&1
	echo "== $rev rows pass"; grep -hE "\(.*\)x\(|Duration|DRAM Throughput|Issue Slots Busy|Registers Per|Achieved Occupancy|Theoretical Occupancy|wavefronts|conflicts|inst_executed|Warp Cycles Per Issued|Stall|stall" $f | cut -c1-150 | head -24
done | tee -a $OUT/log-tail.txt
tar -czf $OUT/outputs.tgz -C /tmp out
