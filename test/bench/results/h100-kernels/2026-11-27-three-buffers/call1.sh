#!/bin/bash
# Call 1: main (b8ada21) against the studies prepared last session
# (../../h200-kernels/2026-11-27-stride-h200/studies/): two-streams (two streams of four
# chunks a thread, 768 threads an SM), two-streams-1024, two-streams-stride
# (on stride-rows) and stride-rows.  kernel_test of each first (the pair
# kernel's first run on a GPU), then the classes the compact automaton
# runs, two rounds each in one run; then Nsight Compute on rows pass for
# main and two-streams.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tar -xJf .carry/cmp.txz -C /tmp
timeout 360 test/kernels/compare-revs run /tmp/cmp "multi-segment,underscore,ILIKE,ILIKE libc,rows pass,AC 1,AC 2,AC 20,DFA" | tee $OUT/log-tail.txt
mkdir -p /tmp/ncu
for rev in main study-two-streams; do
	f=/tmp/ncu/ncu-$rev-rows-pass.txt
	timeout 60 ncu --clock-control none --section SpeedOfLight --section Occupancy --section WarpStateStats \
		--section SchedulerStats --section LaunchStats \
		--metrics l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed.sum \
		-k regex:"stream_kernel" -c 1 /tmp/cmp/$rev/kernel_bench 0.5 "rows pass" > $f 2>&1
	echo "== $rev rows pass"; grep -hE "stream_kernel|Duration|DRAM Throughput|Issue Slots Busy|Registers|Achieved Occupancy|Theoretical Occupancy|wavefronts|conflicts|inst_executed|Warp Cycles Per Issued|Block Size" $f | head -30
done | tee -a $OUT/log-tail.txt
