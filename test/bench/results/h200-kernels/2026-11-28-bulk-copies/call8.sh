#!/bin/bash
# Call 8 (H200): filter_probe (a bigram filter over kernel_bench's text,
# one shuffle a byte, before any verification), twice, then under Nsight
# Compute (speed of light, compute workload) for the filter's kernel.
# Built here, from filter_probe.cu as it was when it ran (since folded
# into verify_probe.cu, whose FILTER_ONLY mode is this filter):
#   git show 0f7b001:test/bench/results/h200-kernels/2026-11-28-bulk-copies/filter_probe.cu
#     > filter_probe.cu
#   nvcc -O3 -std=c++17 -arch=sm_90 -I test/kernels -I src filter_probe.cu
#   -o .carry/probe/filter_probe
# run with carry [".carry/probe"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name --format=csv,noheader
.carry/probe/filter_probe | tee $OUT/probe.txt
.carry/probe/filter_probe | tee $OUT/probe-2.txt
timeout 90 ncu --clock-control none -k regex:probe --launch-skip 4 --launch-count 1 \
	--section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats \
	.carry/probe/filter_probe > $OUT/ncu-filter.txt 2>&1
grep -E "Throughput|Pipe Alu|Issue|Lsu|Mio|Stall (Long|Short|Math|MIO|Not|Wait)" $OUT/ncu-filter.txt | head -30
