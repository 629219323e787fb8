#!/bin/bash
# Call 8: the session's start (b8ada21) against its end (main, cbe4d1a:
# three slice buffers, eight chunks a thread for the wide table), the
# whole kernel_bench two rounds each in one run, kernel_test of both;
# then main's kernel_bench on a 60 GB column.  Outputs in outputs.tgz.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
mkdir -p /tmp/out
OUT=/tmp/out timeout 300 test/kernels/compare-revs run .carry/cmp | tee $OUT/log-tail.txt
echo "== 60 GB, main" | tee -a $OUT/log-tail.txt
timeout 200 .carry/cmp/main/kernel_bench 60 "multi-segment,rows pass,DFA wide" 2>&1 | tee /tmp/out/bench-60gb.txt | grep -vE "^ok|^#  " | tail -12 | tee -a $OUT/log-tail.txt
tar -czf $OUT/outputs.tgz -C /tmp out
