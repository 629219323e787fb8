#!/bin/bash
# call 4: the classed stream for Aho-Corasick past the compact table: kernel_test of both
# revisions, kernel_bench AC classes (two rounds each), Nsight Compute of AC 200 (new)
nvidia-smi --query-gpu=name --format=csv,noheader
test/kernels/compare-revs run .carry/cmp "AC 200" "AC 20" "AC 2" "literal short"
grep "^not ok" $OUT/kernel_test-*.txt | head
ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy \
	--section WarpStateStats -k regex:stream_kernel -c 1 .carry/cmp/HEAD/kernel_bench 0.5 "AC 200" > $OUT/ncu-ac200-classed.txt 2>&1
grep -E "Duration|Throughput|Achieved Occupancy|Theoretical Occupancy|Registers|Shared Memory|Bank|Stall|Warp Cycles" $OUT/ncu-ac200-classed.txt | head -40
