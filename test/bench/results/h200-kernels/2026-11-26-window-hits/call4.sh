#!/bin/bash
# kernel_test; full kernel_bench head (589c9e0) then new; the whole suite with gpulike.device = gpu (kernels suite = the kernel_test above)
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader
(time .carry/kb/kernel_test) > $OUT/kernel_test.txt 2>&1; echo "kernel_test rc=$?"; grep "^not ok" $OUT/kernel_test.txt | head; tail -5 $OUT/kernel_test.txt | head -2
.carry/kb/kernel_bench.head 2.1 > $OUT/kernel_bench-head.txt 2>&1; echo "head rc=$?"
.carry/kb/kernel_bench 2.1 > $OUT/kernel_bench-new.txt 2>&1; echo "new rc=$?"
for f in head new; do echo "== $f"; sed -n '3p;6,22p' $OUT/kernel_bench-$f.txt | cut -c1-15,50-200; done
sed -n '23,80p' $OUT/kernel_bench-new.txt | grep -B1 slowdown | paste - - | awk '{print $1,$2,$(NF-4),$(NF-1),$NF}'
grep -l MISMATCH $OUT/*.txt
GL_SUITES="unit regress tap concurrency lifecycle bench nopreload oldgpu standby shard" CUDA_ARCHS=90 timeout 420 test/gpu/run --part suite --out $OUT/suite > $OUT/suite.txt 2>&1; echo "suite rc=$?"
tail -16 $OUT/suite.txt
