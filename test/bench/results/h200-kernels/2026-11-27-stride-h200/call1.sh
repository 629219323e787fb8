#!/bin/bash
# Call 1: the prepared studies of ../2026-11-27-shapes-h200/studies/ (built
# by its build-next.sh on main 4d65e6d): main, stride-rows, mid-flag,
# stride-mid, ac-wide; kernel_test of each, then the stream classes, two
# rounds each, in one run.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tar -xJf .carry/cmp.txz -C /tmp
timeout 500 test/kernels/compare-revs run /tmp/cmp "literal short,multi-segment,underscore,ILIKE,ILIKE libc,rows pass,AC 1,AC 20,AC 40,AC 200,DFA,DFA wide" | tee $OUT/log-tail.txt
