#!/bin/bash
# Call 1: launch shapes (f5d6033) against db0c5c5: kernel_test, stream classes, request_bench.
set -o pipefail
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
timeout 420 test/kernels/compare-revs run .carry/cmp "multi-segment,ILIKE libc,rows pass,AC 1,AC 20,AC 200,DFA,DFA wide"
for r in db0c5c5 f5d6033; do
	echo "== request_bench $r"
	timeout 60 .carry/cmp/$r/request_bench 15000000 100 > $OUT/request_bench-$r.txt 2>&1
	tail -15 $OUT/request_bench-$r.txt
done
