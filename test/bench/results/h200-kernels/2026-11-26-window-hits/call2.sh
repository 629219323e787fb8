#!/bin/bash
# kernel_test (new); literal classes: head / v1 / new (v2a) / v2b alternating
cd "$(dirname "$0")/kb"
nvidia-smi --query-gpu=name --format=csv,noheader
(time ./kernel_test) > $OUT/kernel_test.txt 2>&1; echo "kernel_test rc=$?"; grep "^not ok" $OUT/kernel_test.txt | head; tail -5 $OUT/kernel_test.txt | head -2
for r in 1 2; do
 classes=("literal short" "prefix" "literal long" "literal rare"); [ $r = 2 ] && classes=("literal short" "prefix")
 for b in head v1 new v2b; do
  bin=kernel_bench.$b; [ $b = new ] && bin=kernel_bench
  for c in "${classes[@]}"; do
   ./$bin 2.1 "$c" | tail -1 | sed "s/^/$b /" ; done
 done
done 2>&1 | tee $OUT/literal.txt | cut -c1-20,50-200
