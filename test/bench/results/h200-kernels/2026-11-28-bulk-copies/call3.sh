#!/bin/bash
# Call 3 (H200): bulk_probe with its TMA tensor modes (5, 6: one 2D box
# copy a warp, the 32 chunks' slice, swizzled 64B) beside the modes of
# call 1, alone and under Nsight Compute (LSU and TMA pipes).  Built here:
#   nvcc -O3 -std=c++17 -arch=sm_90 -lineinfo bulk_probe.cu -o .carry/probe/bulk_probe
# run with carry [".carry/probe"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name --format=csv,noheader
.carry/probe/bulk_probe | tee $OUT/probe.txt
.carry/probe/bulk_probe | tee $OUT/probe-2.txt
timeout 150 ncu --clock-control none -k regex:probe -c 26 --metrics \
	l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed,sm__pipe_tma_cycles_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum \
	.carry/probe/bulk_probe > $OUT/ncu-probe.txt 2>&1
grep -E "probe<|wavefronts|pipe_|inst_executed.sum|dram__|duration" $OUT/ncu-probe.txt | awk 'NR%2==1 || !/probe</' | head -150
