#!/bin/bash
# call 5: the classed stream with byte-offset entries: kernel_bench AC classes against the skim
nvidia-smi --query-gpu=name --format=csv,noheader
test/kernels/compare-revs run .carry/cmp "AC 200" "AC 20" "literal short"
grep "^not ok" $OUT/kernel_test-*.txt | head
cuobjdump -sass -fun '_Z13stream_kernelI16ClassedAutomatonEvPKhmPK12GlChunkIndexjPK5uint4jT_Pj' .carry/cmp/HEAD/kernel_bench > $OUT/sass-classed.txt 2>&1
grep -n "LDS.U16" $OUT/sass-classed.txt | head -3
n=$(grep -n "LDS.U16" $OUT/sass-classed.txt | sed -n 12p | cut -d: -f1); sed -n "$((n-16)),$((n+8))p" $OUT/sass-classed.txt
ncu --clock-control none --section SpeedOfLight --section Occupancy --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed.sum \
	-k regex:stream_kernel -c 1 .carry/cmp/HEAD/kernel_bench 0.5 "AC 200" > $OUT/ncu-ac200-classed.txt 2>&1
ncu --clock-control none --section SpeedOfLight --section Occupancy --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed.sum \
	-k regex:skim -c 1 .carry/cmp/HEAD~2/kernel_bench 0.5 "AC 200" > $OUT/ncu-ac200-skim.txt 2>&1
grep -hE "Duration|wavefronts|conflicts|inst_executed|Achieved Occupancy|Memory Throughput" $OUT/ncu-ac200-*.txt
