#!/bin/bash
# call 1: the GPU's name; kernel_test and the whole kernel_bench (two rounds) of 589c9e0 (the last
# tree measured on an H200) and HEAD; the issue-era kernel_bench (b66bf50) once, in the same call
set -uo pipefail
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu-name.txt
test/kernels/compare-revs run .carry/cmp
grep "^not ok" $OUT/kernel_test-*.txt | head
.carry/old/kernel_bench 2.1 > $OUT/bench-b66bf50.txt 2>&1
grep -E "read:|%read|^literal|^multi|^under|^ILIKE|^prefix|^rows|^AC|^DFA" $OUT/bench-b66bf50.txt | head -20
