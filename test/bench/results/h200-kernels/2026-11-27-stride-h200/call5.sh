#!/bin/bash
# Call 5: kernel_bench with a 60 GB column on the H200, main's kernels
# (the column made by every host thread now), four classes, each checked
# against the CPU engine over the 60 GB.
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
( time timeout 280 stdbuf -oL .carry/kernel_bench60 60 "literal short,rows pass,AC 20,DFA wide" ) 2>&1 | tee $OUT/kernel_bench-60gb.txt
