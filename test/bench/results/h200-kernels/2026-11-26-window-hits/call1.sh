#!/bin/bash
# kernel_test (new, and HEAD's if new fails), literal classes: head / new / u2 alternating, ncu of the window kernel
cd "$(dirname "$0")/kb"
nvidia-smi --query-gpu=name --format=csv,noheader
(time ./kernel_test) > $OUT/kernel_test.txt 2>&1; echo "kernel_test rc=$?"; grep "^not ok" $OUT/kernel_test.txt | head; tail -5 $OUT/kernel_test.txt | head -2
grep -q "^not ok" $OUT/kernel_test.txt && { ./kernel_test.head > $OUT/kernel_test-head.txt 2>&1; echo "head kernel_test rc=$?"; }
for r in 1 2; do
 classes=("literal short" "prefix" "literal long" "literal rare"); [ $r = 2 ] && classes=("literal short" "prefix")
 for b in head new u2; do
  bin=kernel_bench.$b; [ $b = new ] && bin=kernel_bench
  for c in "${classes[@]}"; do
   ./$bin 2.1 "$c" | tail -1 | sed "s/^/$b /" ; done
 done
done 2>&1 | tee $OUT/literal.txt | cut -c1-20,50-200
ncu --clock-control none --section WarpStateStats --section ComputeWorkloadAnalysis --section SpeedOfLight --metrics inst_executed,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_elapsed,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_elapsed --page raw -k regex:sieve_window -c 1 ./kernel_bench 0.5 "literal short" > $OUT/ncu-window-new.txt 2>&1
grep -E "inst_executed  |gpu__time_duration.sum|alu_cycles|fma_cycles|issue_active.avg|long_score.*ratio|math_pipe.*ratio|not_selected.*ratio" $OUT/ncu-window-new.txt | grep -v "max\|min"
cuobjdump -sass -fun '_Z19sieve_window_kernelILi5EEvPKhmPK12GlChunkIndexj7GlSievePj' kernel_bench > $OUT/window5-new.sass 2>&1; wc -l $OUT/window5-new.sass
cuobjdump -sass -fun '_Z19sieve_window_kernelILi5EEvPKhmPK12GlChunkIndexj7GlSievePj' kernel_bench.head > $OUT/window5-head.sass 2>&1
