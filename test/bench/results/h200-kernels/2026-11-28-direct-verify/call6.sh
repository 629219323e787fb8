#!/bin/bash
# Call 6 (H200): the set sieve (97ddb03) against main before it (defe877):
# kernel_test of the set sieve's revision, then the whole kernel_bench,
# two rounds of each revision.  Built here:
#   test/kernels/compare-revs build .carry/s28 defe877 97ddb03
#   (request_bench removed), tar -cJf .carry/s28.txz -C .carry s28;
# run with carry [".carry/s28.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
tmp=$(mktemp -d)
tar -xJf .carry/s28.txz -C "$tmp" || exit 1
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 200 "$tmp/s28/97ddb03/kernel_test" > $OUT/kernel_test-97ddb03.txt 2>&1
echo "kernel_test 97ddb03: $(grep -E '^# [0-9]+ passed' $OUT/kernel_test-97ddb03.txt)"
grep -E "^not ok|set sieve|set-sieve" $OUT/kernel_test-97ddb03.txt | head -30
gzip -9 -n -f $OUT/kernel_test-97ddb03.txt
OUT=$OUT timeout 330 test/kernels/compare-revs bench "$tmp/s28" | tee $OUT/log-tail.txt
