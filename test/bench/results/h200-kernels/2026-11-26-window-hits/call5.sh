#!/bin/bash
# kernel_test (new); full kernel_bench: head (589c9e0), mid (sieve + AC cap, tail reverted), new (+ one-row words from the index)
cd "$(dirname "$0")/kb"
nvidia-smi --query-gpu=name --format=csv,noheader
(time ./kernel_test) > $OUT/kernel_test.txt 2>&1; echo "kernel_test rc=$?"; grep "^not ok" $OUT/kernel_test.txt | head; tail -5 $OUT/kernel_test.txt | head -2
for b in head mid new; do
  bin=kernel_bench.$b; [ $b = new ] && bin=kernel_bench
  ./$bin 2.1 > $OUT/kernel_bench-$b.txt 2>&1; echo "$b rc=$?"
done
paste <(sed -n '6,22p' $OUT/kernel_bench-head.txt | cut -c1-14,50-61,88-200) <(sed -n '6,22p' $OUT/kernel_bench-mid.txt | cut -c50-61,88-200) <(sed -n '6,22p' $OUT/kernel_bench-new.txt | cut -c50-61,88-200)
sed -n 3p $OUT/kernel_bench-new.txt
sed -n '23,80p' $OUT/kernel_bench-new.txt | grep -B1 slowdown | paste - - | awk '{print $1,$2,$(NF-4),$(NF-1),$NF}'
grep -l MISMATCH $OUT/*.txt
