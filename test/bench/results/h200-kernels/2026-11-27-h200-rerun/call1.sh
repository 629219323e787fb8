#!/bin/bash
# Call 1: the thirteenth session's start (b8ada21) against main (three
# slice buffers, eight chunks a thread for the wide table, eight sieve
# steps), the whole kernel_bench two rounds each in one run, kernel_test
# of both; then main's kernel_bench on a 60 GB column.  Outputs in
# outputs.tgz.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm --format=csv,noheader
mkdir -p /tmp/out
tar -xJf .carry/cmp.txz -C /tmp
OUT=/tmp/out timeout 330 test/kernels/compare-revs run /tmp/cmp | tee /tmp/out/log-tail.txt
echo "== 60 GB, main" | tee -a /tmp/out/log-tail.txt
timeout 220 /tmp/cmp/main/kernel_bench 60 "literal short,multi-segment,rows pass,AC 20,AC 200,DFA wide" 2>&1 |
	tee /tmp/out/bench-60gb.txt | grep -vE "^ok|^#  " | tail -14 | tee -a /tmp/out/log-tail.txt
cp /tmp/out/log-tail.txt $OUT/
tar -czf $OUT/outputs.tgz -C /tmp out
