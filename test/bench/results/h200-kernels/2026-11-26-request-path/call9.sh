#!/bin/bash
# call 9: the classed table with the root and MATCHED first (new) against c0d7071 (prev)
nvidia-smi --query-gpu=name --format=csv,noheader
.carry/cmp/new/kernel_test > $OUT/kernel_test-new.txt 2>&1; tail -1 $OUT/kernel_test-new.txt; grep "^not ok" $OUT/kernel_test-new.txt | head -3
for r in 1 2 3; do for v in prev new; do
	.carry/cmp/$v/kernel_bench 2.1 "AC 200,AC 20,AC 2" | grep -E "%$" | sed "s/^/$v.$r /"
done; done
ncu --clock-control none --section SpeedOfLight --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum \
	-k regex:stream_kernel -c 1 .carry/cmp/new/kernel_bench 0.5 "AC 200" > $OUT/ncu-ac200-new.txt 2>&1
grep -hE "Duration|wavefronts|conflicts" $OUT/ncu-ac200-new.txt
