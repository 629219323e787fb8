#!/bin/bash
# call 13: the open row's first 32 bytes copied into shared memory with the group's first slice (or)
# against the final tree (base): kernel_test of or; the stream kernel's classes, two rounds
nvidia-smi --query-gpu=name --format=csv,noheader
.carry/cmp/or/kernel_test > $OUT/kernel_test-or.txt 2>&1; tail -1 $OUT/kernel_test-or.txt; grep "^not ok" $OUT/kernel_test-or.txt | head -3
C="multi-segment,underscore,ILIKE,ILIKE libc,rows pass,AC 1,AC 2,AC 20,AC 200,DFA"
for r in 1 2; do for v in base or; do
	.carry/cmp/$v/kernel_bench 2.1 "$C" | grep -E "%|MISMATCH" | grep -v "^#\|^class" | sed "s/^/$v.$r /" | cut -c1-140
done; done
