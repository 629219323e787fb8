#!/bin/bash
# call 16: the open-row walk inlined (fi)
# against the final tree (base): kernel_test of fi; the stream kernel's classes, two rounds
nvidia-smi --query-gpu=name --format=csv,noheader
.carry/cmp/fi/kernel_test > $OUT/kernel_test-fi.txt 2>&1; tail -1 $OUT/kernel_test-fi.txt; grep "^not ok" $OUT/kernel_test-fi.txt | head -3
C="multi-segment,underscore,ILIKE,ILIKE libc,rows pass,AC 1,AC 2,AC 20,AC 200,DFA"
for r in 1 2; do for v in base fi; do
	.carry/cmp/$v/kernel_bench 2.1 "$C" | grep -E "%|MISMATCH" | grep -v "^#\|^class" | sed "s/^/$v.$r /" | cut -c1-140
done; done
