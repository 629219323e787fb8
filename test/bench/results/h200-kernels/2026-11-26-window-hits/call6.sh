#!/bin/bash
# kernel_test (final); classes: mid (sieve + AC cap) / final (+ one-row words, stream kernels only), alternating
cd "$(dirname "$0")/kb"
nvidia-smi --query-gpu=name --format=csv,noheader
(time ./kernel_test) > $OUT/kernel_test.txt 2>&1; echo "kernel_test rc=$?"; grep "^not ok" $OUT/kernel_test.txt | head; tail -5 $OUT/kernel_test.txt | head -2
for r in 1 2; do for b in mid final; do
  bin=kernel_bench.$b; [ $b = final ] && bin=kernel_bench
  for c in "AC 200" "AC 20" "rows pass"; do ./$bin 2.1 "$c" | tail -1 | sed "s/^/$b /"; done
done; done 2>&1 | tee $OUT/classes.txt | cut -c1-20,50-200
