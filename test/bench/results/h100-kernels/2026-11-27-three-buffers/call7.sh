#!/bin/bash
# Call 7: main (three slice buffers) against studies/chunks-8 (eight
# chunks a thread, not four: the open row at the end followed half as
# often), the whole kernel_bench two rounds each in one run, kernel_test
# of both; then Nsight Compute on main's kernels under their targets
# (rows pass, AC 200).
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tar -xJf .carry/cmp.txz -C /tmp
mkdir -p /tmp/out
OUT=/tmp/out timeout 330 test/kernels/compare-revs run /tmp/cmp | tee $OUT/log-tail.txt
for c in "rows pass" "AC 200"; do
	f=/tmp/out/ncu-main-${c// /-}.txt
	timeout 45 ncu --clock-control none --section SpeedOfLight --section Occupancy --section WarpStateStats \
		--section LaunchStats \
		--metrics l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed.sum \
		-k regex:"stream_kernel" -c 1 /tmp/cmp/main/kernel_bench 0.5 "$c" > $f 2>&1
	echo "== main $c"; grep -hE "\(.*\)x\(|Duration|DRAM Throughput|Registers Per|Achieved Occupancy|Theoretical Occupancy|wavefronts|conflicts|inst_executed|Warp Cycles Per Issued|cycles being stalled" $f | cut -c1-150 | head -14
done | tee -a $OUT/log-tail.txt
tar -czf $OUT/outputs.tgz -C /tmp out
