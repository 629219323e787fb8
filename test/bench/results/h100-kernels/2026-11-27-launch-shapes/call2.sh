#!/bin/bash
# Call 2 (H200): launch shapes (f5d6033) against db0c5c5 on the stream classes; then a 60 GB column.
set -o pipefail
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
timeout 150 test/kernels/compare-revs run .carry/cmp "multi-segment,ILIKE libc,rows pass,AC 20,AC 200,DFA,DFA wide"
echo "== 60 GB, f5d6033"
( time timeout 420 .carry/cmp/f5d6033/kernel_bench 60 ) > $OUT/kernel_bench-60gb.txt 2>&1
cat $OUT/kernel_bench-60gb.txt
