#!/bin/bash
# call 2: request_bench of main and the variants (v1 program cache, v2 occupancy memo,
# v3 listing straight to pinned memory with the NULL mask in it), two rounds; kernel_test of v13
nvidia-smi --query-gpu=name --format=csv,noheader
.carry/rb/kernel_test.v13 > $OUT/kernel_test-v13.txt 2>&1; tail -2 $OUT/kernel_test-v13.txt; grep -c "^not ok" $OUT/kernel_test-v13.txt
for r in 1 2; do
for b in main v1 v12 v13 v123; do
	echo "== $b round $r"
	.carry/rb/request_bench.$b 15000000 300 2>&1 | tail -n +3
done
done
