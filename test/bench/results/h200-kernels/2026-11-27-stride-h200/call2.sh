#!/bin/bash
# Call 2: main (7e78a76: mid-flag and ac-wide kept) against two studies
# of prefetching a chunk's index entry into L2 while the chunk is stepped
# (study/entry-prefetch: after three slices, where they had hits;
# study/entry-prefetch-half: after two), the classes with hits, two rounds
# each in one run; then Nsight Compute on main's rows pass and AC 20.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tar -xJf .carry/cmp.txz -C /tmp
timeout 300 test/kernels/compare-revs run /tmp/cmp "multi-segment,ILIKE libc,rows pass,AC 1,AC 20,AC 40,DFA,DFA wide" | tee $OUT/log-tail.txt
mkdir -p /tmp/ncu
for c in "rows pass" "AC 20"; do
	f=/tmp/ncu/ncu-main-${c// /-}.txt
	timeout 90 ncu --clock-control none --section SpeedOfLight --section Occupancy --section WarpStateStats \
		--section SchedulerStats --section LaunchStats \
		--metrics l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed.sum \
		-k regex:"stream_kernel" -c 1 /tmp/cmp/main/kernel_bench 0.5 "$c" > $f 2>&1
	echo "== $c"; grep -hE "stream_kernel|Duration|DRAM Throughput|Issue Slots Busy|Registers|Achieved Occupancy|Theoretical Occupancy|wavefronts|conflicts|inst_executed|Stall|Warp Cycles Per Issued" $f | head -30
done | tee -a $OUT/log-tail.txt
cp /tmp/ncu/*.txt $OUT/
