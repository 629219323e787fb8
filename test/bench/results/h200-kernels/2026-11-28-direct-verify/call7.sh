#!/bin/bash
# Call 7 (H200): the set sieve staging each step in its turn (dd19184),
# the same without polling give_up (study/set-no-poll, set-no-poll.patch)
# and main before the set sieve (defe877): kernel_test of dd19184, then
# kernel_bench's Aho-Corasick classes and '%final%', two rounds of each.
# Built here:
#   test/kernels/compare-revs build .carry/s29 defe877 dd19184 study/set-no-poll
#   (request_bench removed), tar -cJf .carry/s29.txz -C .carry s29;
# run with carry [".carry/s29.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
tmp=$(mktemp -d)
tar -xJf .carry/s29.txz -C "$tmp" || exit 1
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 150 "$tmp/s29/dd19184/kernel_test" > $OUT/kernel_test-dd19184.txt 2>&1
echo "kernel_test dd19184: $(grep -E '^# [0-9]+ passed' $OUT/kernel_test-dd19184.txt)"
grep -E "^not ok|planned" $OUT/kernel_test-dd19184.txt | head -12
gzip -9 -n -f $OUT/kernel_test-dd19184.txt
OUT=$OUT timeout 300 test/kernels/compare-revs bench "$tmp/s29" \
	"AC 1,AC 2,AC 20,AC 200,AC 200 rare,literal short" | tee $OUT/log-tail.txt
grep -h "AC \|plain" $OUT/bench-dd19184-1.txt
