#!/bin/bash
# call 4: 4e8f07f (HEAD) against two studies of the stream kernel: v5 = eight chunks a thread
# (the open row followed once per 2 kB), v6 = each chunk's index entry loaded before its scan
# (for the hit words and the open row); kernel_test of each; the stream classes, two rounds
set -uo pipefail
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu-name.txt
test/kernels/compare-revs run .carry/cmp "multi-segment,underscore,ILIKE,ILIKE libc,rows pass,AC 1,AC 2,AC 20,DFA"
grep "^not ok" $OUT/kernel_test-*.txt | head
