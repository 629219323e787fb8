#!/bin/bash
# Call 9 (H200; ready, not run): verify_probe (the bigram filter and the
# Aho-Corasick walks it leaves, 200 literals, checked row by row against
# the host), then kernel_bench's "AC 200" (the stream kernel) in the same
# call, for the comparison.  Built here:
#   (cd test/bench/results/h200-kernels/2026-11-28-bulk-copies &&
#    nvcc -O3 -std=c++17 -arch=sm_90 -lineinfo -I../../../../kernels
#    -I../../../../../src -I../../../../../cuda verify_probe.cu
#    build/engine/*.o build/leaf/**/*.o -o .carry/probe/verify_probe -lpthread)
#   with test/kernels' objects (make -C test/kernels O=build), and
#   test/kernels/compare-revs build .carry/s27a HEAD;
# run with carry [".carry/probe", ".carry/s27a"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name --format=csv,noheader
.carry/probe/verify_probe | tee $OUT/verify.txt
.carry/probe/verify_probe | tee $OUT/verify-2.txt
.carry/s27a/HEAD/kernel_bench 2.1 "AC 200" | tee $OUT/bench-ac200.txt | grep -E "AC 200|plain"
