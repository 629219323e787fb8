#!/bin/bash
# call 8: the whole kernel_bench (two rounds) and kernel_test of 197d0bb (this session's start) and
# 4e8f07f (its final kernels); the issue-era kernel_bench (b66bf50) once, in the same call
set -uo pipefail
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu-name.txt
test/kernels/compare-revs run .carry/cmp
grep "^not ok" $OUT/kernel_test-*.txt | head
.carry/old/kernel_bench 2.1 > $OUT/bench-b66bf50.txt 2>&1
grep -E "read:|%read|^literal|^multi|^under|^ILIKE|^prefix|^rows|^AC|^DFA" $OUT/bench-b66bf50.txt | head -20
