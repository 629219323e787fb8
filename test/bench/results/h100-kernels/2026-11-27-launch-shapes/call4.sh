#!/bin/bash
# Call 4: kernel_bench with a 60 GB column (f5d6033 kernels), a subset of the classes (each is checked against the CPU engine over 60 GB).
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
( time timeout 440 stdbuf -oL .carry/cmp60/kernel_bench 60 "literal short,literal long,multi-segment,rows pass,AC 20,AC 200,DFA wide" ) 2>&1 | tee $OUT/kernel_bench-60gb.txt
