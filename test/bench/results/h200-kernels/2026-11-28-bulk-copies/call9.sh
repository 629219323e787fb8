#!/bin/bash
# Call 9 (H200): verify_probe (the bigram filter and the
# Aho-Corasick walks it leaves, 200 literals, checked row by row against
# the host), then kernel_bench's "AC 200" (the stream kernel) in the same
# call, for the comparison.  Built here:
#   make -s -C test/kernels CUDA_ARCHS=90 (its objects in test/kernels/build),
#   nvcc -O3 -std=c++17 -arch=sm_90 -lineinfo -Itest/kernels -Isrc -Icuda \
#     test/bench/results/h200-kernels/2026-11-28-bulk-copies/verify_probe.cu \
#     test/kernels/build/engine/*.o $(find test/kernels/build/leaf -name '*.o') \
#     -o .carry/c9/verify_probe -lpthread
#   and test/kernels/compare-revs build .carry/s27a HEAD, its kernel_bench
#   copied to .carry/c9 (the whole build is past the carry's limit);
# run with carry [".carry/c9"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name --format=csv,noheader
.carry/c9/verify_probe | tee $OUT/verify.txt
.carry/c9/verify_probe | tee $OUT/verify-2.txt
.carry/c9/kernel_bench 2.1 "AC 200" | tee $OUT/bench-ac200.txt | grep -E "AC 200|plain"
