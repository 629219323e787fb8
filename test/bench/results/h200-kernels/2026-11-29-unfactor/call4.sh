#!/bin/bash
# Call 4 (H200): main after review (the factored walk's report keyed on
# pp->factored alone): kernel_test, then the whole kernel_bench.  The
# binaries travel in .carry/bins.txz (next/); run with carry
# [".carry/bins.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
tar -xJf .carry/bins.txz -C .carry
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu-name.txt
timeout 200 .carry/next/kernel_test > $OUT/kernel_test.txt 2>&1; echo "kernel_test rc $?" >> $OUT/kernel_test.txt
grep -E "^not ok|passed|rc |cached after" $OUT/kernel_test.txt | head -30
timeout 190 .carry/next/kernel_bench 2.1 > $OUT/bench.txt 2>&1; echo "bench rc $?"
grep -E "%$|plain|slowdown|first match" $OUT/bench.txt | head -70
