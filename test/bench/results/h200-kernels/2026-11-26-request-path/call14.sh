#!/bin/bash
# call 14: a chunk's last word set from the index too (its separators from the next chunk's row) (w7)
# against the final tree (base): kernel_test of w7; the stream kernel's classes, two rounds
nvidia-smi --query-gpu=name --format=csv,noheader
.carry/cmp/w7/kernel_test > $OUT/kernel_test-w7.txt 2>&1; tail -1 $OUT/kernel_test-w7.txt; grep "^not ok" $OUT/kernel_test-w7.txt | head -3
C="multi-segment,underscore,ILIKE,ILIKE libc,rows pass,AC 1,AC 2,AC 20,AC 200,DFA"
for r in 1 2; do for v in base w7; do
	.carry/cmp/$v/kernel_bench 2.1 "$C" | grep -E "%|MISMATCH" | grep -v "^#\|^class" | sed "s/^/$v.$r /" | cut -c1-140
done; done
