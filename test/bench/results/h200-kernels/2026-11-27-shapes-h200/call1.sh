#!/bin/bash
# Call 1: the launch shapes on the H200 -- db0c5c5 (before), main (619e238),
# study/twin-banks, study/compact16 on the stream classes, two rounds each;
# study/shape-memo's kernel_test and request_bench beside main's.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tar -xJf .carry/cmp.txz -C /tmp && mkdir -p /tmp/memo && mv /tmp/cmp/study-shape-memo /tmp/memo/
for r in main study-shape-memo; do
	d=/tmp/cmp/$r; [ -d $d ] || d=/tmp/memo/$r
	echo "== request_bench $r"
	timeout 60 $d/request_bench 15000000 100 > $OUT/request_bench-$r.txt 2>&1
	tail -6 $OUT/request_bench-$r.txt
done
timeout 90 /tmp/memo/study-shape-memo/kernel_test > $OUT/kernel_test-study-shape-memo.txt 2>&1
echo "kernel_test study-shape-memo: $(grep -E '^# [0-9]+ passed' $OUT/kernel_test-study-shape-memo.txt)"
timeout 400 test/kernels/compare-revs run /tmp/cmp "multi-segment,ILIKE libc,rows pass,AC 1,AC 20,AC 200,DFA,DFA wide"
