#!/bin/bash
# Call 1 (H200): main at 3360059 (the factored automaton's code of
# 2026-11-29-rare-factors, its candidate list's cap and kernel_test's
# draws not yet run on a device): kernel_test; the whole kernel_bench
# (with the column whose sample misses the factors); Nsight Compute of the
# factored walk for 200 literals (0.5 GB: its stream kernel, then the
# per-row kernel deciding the candidates).
# Binaries built here (make -C test/kernels O=/tmp/kt CUDA_ARCHS=90) and
# carried in .carry/head; run with carry [".carry/head"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu-name.txt
timeout 200 .carry/head/kernel_test > $OUT/kernel_test.txt 2>&1; echo "kernel_test rc $?" >> $OUT/kernel_test.txt
grep -E "^not ok|passed|rc " $OUT/kernel_test.txt | head -20
timeout 200 .carry/head/kernel_bench 2.1 > $OUT/bench.txt 2>&1; echo "bench rc $?"
grep -vE "^ok|^#  " $OUT/bench.txt | head -40
grep -A3 "sample missing" $OUT/bench.txt
S="--section SpeedOfLight --section MemoryWorkloadAnalysis_Tables --section WarpStateStats"
timeout 80 ncu --clock-control none -k regex:stream_kernel --launch-skip 3 -c 1 $S \
	.carry/head/kernel_bench 0.5 "AC 200" > $OUT/ncu-stream.txt 2>&1
timeout 60 ncu --clock-control none -k regex:rows_kernel --launch-skip 3 -c 1 --section SpeedOfLight \
	.carry/head/kernel_bench 0.5 "AC 200" > $OUT/ncu-rows.txt 2>&1
grep -E "Duration|Throughput|Bank|Stall|Active Threads|Warp Cycles" $OUT/ncu-*.txt | head -40
