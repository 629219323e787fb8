#!/bin/bash
# Call 9: main (2a15fa3) against studies/sieve-unroll-6 and -8 (the sieve
# loading six or eight 512-byte steps a warp at once, not four), prepared
# for the H200, whose read bandwidth needs more bytes in flight; kernel_test
# of each, the sieve's classes two rounds each in one run.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tar -xJf .carry/cmp.txz -C /tmp
mkdir -p /tmp/out
OUT=/tmp/out timeout 240 test/kernels/compare-revs run /tmp/cmp "literal short,literal rare,literal long,prefix,literal pair" | tee $OUT/log-tail.txt
tar -czf $OUT/outputs.tgz -C /tmp out
