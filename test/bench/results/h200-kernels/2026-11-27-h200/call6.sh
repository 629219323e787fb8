#!/bin/bash
# call 6: 4e8f07f (HEAD) against v8 (call 5) and v9 (its load only in steps whose probes pass, in flight while the window's other bytes are tested; the sieve's row at each lane's word loaded with the span,
# so a step with hits waits on no index load); kernel_test of both; the sieve's classes, two rounds
set -uo pipefail
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu-name.txt
test/kernels/compare-revs run .carry/cmp "literal short,literal rare,literal long,prefix,literal pair,DFA sieved"
grep "^not ok" $OUT/kernel_test-*.txt | head
