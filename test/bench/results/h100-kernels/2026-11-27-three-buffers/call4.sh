#!/bin/bash
# Call 4: the whole kernel_bench (2.1 GB), this session's start (b8ada21)
# against main with three slice buffers (4d7d307), two rounds each in one
# run, kernel_test of both; then main's kernel_bench on a 60 GB column.
# Outputs packed in outputs.tgz.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
mkdir -p /tmp/out
OUT=/tmp/out timeout 330 test/kernels/compare-revs run .carry/cmp | tee $OUT/log-tail.txt
echo "== 60 GB, main" | tee -a $OUT/log-tail.txt
timeout 220 .carry/cmp/main/kernel_bench 60 "literal short,rows pass,AC 20,AC 200,DFA wide" 2>&1 | tee /tmp/out/bench-60gb.txt | grep -vE "^ok|^#  " | tail -30 | tee -a $OUT/log-tail.txt
tar -czf $OUT/outputs.tgz -C /tmp out
