#!/bin/bash
# call 11: the final tree's kernel_test, kernel_bench of the AC classes, request_bench
nvidia-smi --query-gpu=name --format=csv,noheader
.carry/cmp/final/kernel_test > $OUT/kernel_test-final.txt 2>&1; tail -1 $OUT/kernel_test-final.txt; grep "^not ok" $OUT/kernel_test-final.txt | head -3
.carry/cmp/final/kernel_bench 2.1 "AC 200,AC 20,AC 2,rows pass"
.carry/cmp/final/request_bench 15000000 200
