#!/bin/bash
# kernel_test (new); full kernel_bench head then new; stream classes new / s2 (L1 prefetch) ; AC classes ac (AC on the compact stream)
cd "$(dirname "$0")/kb"
nvidia-smi --query-gpu=name --format=csv,noheader
(time ./kernel_test) > $OUT/kernel_test.txt 2>&1; echo "kernel_test rc=$?"; grep "^not ok" $OUT/kernel_test.txt | head; tail -5 $OUT/kernel_test.txt | head -2
./kernel_bench.head 2.1 > $OUT/kernel_bench-head.txt 2>&1; echo "head rc=$?"
./kernel_bench 2.1 > $OUT/kernel_bench-new.txt 2>&1; echo "new rc=$?"
for f in head new; do echo "== $f"; sed -n '3p;6,22p' $OUT/kernel_bench-$f.txt | cut -c1-15,50-200; done
sed -n '23,80p' $OUT/kernel_bench-new.txt | grep -B1 slowdown | paste - - | awk '{print $1,$2,$(NF-4),$(NF-1),$NF}'
for b in s2 new s2 new; do
  bin=kernel_bench.$b; [ $b = new ] && bin=kernel_bench
  for c in "multi-segment" "DFA" "rows pass"; do ./$bin 2.1 "$c" | grep -E "^(multi|DFA|rows)" | sed "s/^/$b /"; done
done 2>&1 | tee $OUT/stream.txt | cut -c1-20,50-200
for b in ac new; do
  bin=kernel_bench.$b; [ $b = new ] && bin=kernel_bench
  for c in "AC 20" "AC 200" "AC 2"; do ./$bin 2.1 "$c" | tail -1 | sed "s/^/$b /"; done
done 2>&1 | tee $OUT/ac.txt | cut -c1-20,50-200
grep -l "MISMATCH" $OUT/*.txt | head
