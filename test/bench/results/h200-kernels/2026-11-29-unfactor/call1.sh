#!/bin/bash
# Call 1 (H200): kernel_test of the tree (the factored walk's give-up
# learnt by the column's cache), then the whole kernel_bench of the tree
# and of main at f58a753, one after the other.  The binaries travel in
# .carry/bins.txz (head/ = f58a753's kernel_bench, next/ = the tree's
# kernel_test and kernel_bench); run with carry [".carry/bins.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
tar -xJf .carry/bins.txz -C .carry
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu-name.txt
timeout 200 .carry/next/kernel_test > $OUT/kernel_test.txt 2>&1; echo "kernel_test rc $?" >> $OUT/kernel_test.txt
grep -E "^not ok|passed|rc |cached after" $OUT/kernel_test.txt | head -30
for t in next head; do
	timeout 190 .carry/$t/kernel_bench 2.1 > $OUT/bench-$t.txt 2>&1; echo "bench $t rc $?"
	grep -E "%$|plain|slowdown|first match" $OUT/bench-$t.txt | head -70
done
