#!/bin/bash
# Call 1 (H200): kernel_test of the factored automaton's tree, then the whole
# kernel_bench of main before it (kb_old: c39e492) and with it (kb_new), one
# round each.  The binaries are built on the CPU machine
# (make -C test/kernels O=... CUDA_ARCHS=90) and carried in .carry/.
set -o pipefail
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv | tee $OUT/gpu.txt
timeout 240 ./.carry/kt_new 2>&1 | tail -n 400 > $OUT/kernel_test.txt; echo "kernel_test rc $?" | tee -a $OUT/kernel_test.txt
grep -E "^not ok|passed|factored" $OUT/kernel_test.txt | head -40
for t in old new; do
	timeout 150 ./.carry/kb_$t 2.1 2>&1 | tee $OUT/bench-$t.txt
done
