#!/bin/bash
# Call 3: the whole kernel_bench, this session's start (4d65e6d) and end
# (main: mid-flag and ac-wide), two rounds each in one run; then a 60 GB
# column with main's kernels, as many of five classes as the call's time
# leaves (each checked against the CPU engine over the 60 GB).
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm,memory.total --format=csv,noheader
tar -xJf .carry/cmp.txz -C /tmp
timeout 270 test/kernels/compare-revs run /tmp/cmp | tee $OUT/log-tail.txt
( time timeout 270 stdbuf -oL /tmp/cmp/main/kernel_bench 60 "literal short,rows pass,AC 20,AC 200,DFA wide" ) 2>&1 | tee $OUT/kernel_bench-60gb.txt
