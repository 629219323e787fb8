#!/bin/bash
# call 8: kernel_test and the whole kernel_bench (two rounds) of e041939 (before the classed stream)
# and HEAD; Nsight Compute of "AC 200" on HEAD's classed stream
nvidia-smi --query-gpu=name --format=csv,noheader
test/kernels/compare-revs run .carry/cmp
grep "^not ok" $OUT/kernel_test-*.txt | head
ncu --clock-control none --section SpeedOfLight --section Occupancy --section WarpStateStats \
	--metrics l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed.sum \
	-k regex:stream_kernel -c 1 .carry/cmp/HEAD/kernel_bench 0.5 "AC 200" > $OUT/ncu-ac200-classed.txt 2>&1
grep -hE "Duration|wavefronts|conflicts|inst_executed|Achieved Occupancy|Theoretical Occupancy|Memory Throughput|Warp Cycles Per Issued" $OUT/ncu-ac200-classed.txt
