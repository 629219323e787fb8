#!/bin/bash
# Call 9 (an H100; ready, not run: no device time was left): the set
# sieve as kept (bdd0b0f, whose kernel is study/set-no-poll's of call 7):
# kernel_test, then kernel_bench's "AC 200
# rare" (the set sieve) beside "AC 200" and "AC 40" (the stream kernel),
# one run.  Built here:
#   test/kernels/compare-revs build .carry/s31 HEAD
#   (request_bench removed), tar -cJf .carry/s31.txz -C .carry s31;
# run with carry [".carry/s31.txz"] on nvidia-h100-x1.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
tmp=$(mktemp -d)
tar -xJf .carry/s31.txz -C "$tmp" || exit 1
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 100 "$tmp/s31/HEAD/kernel_test" > $OUT/kernel_test-bdd0b0f.txt 2>&1
echo "kernel_test bdd0b0f: $(grep -E '^# [0-9]+ passed' $OUT/kernel_test-bdd0b0f.txt)"
grep -E "^not ok|planned" $OUT/kernel_test-bdd0b0f.txt | head -12
gzip -9 -n -f $OUT/kernel_test-bdd0b0f.txt
timeout 60 "$tmp/s31/HEAD/kernel_bench" 2.1 "AC 200 rare,AC 200,AC 40" | tee $OUT/bench.txt
