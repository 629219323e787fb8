#!/bin/bash
# Call 4: main against study/span-fast (studies/span-fast.patch: the
# sieve kernels load a span wholly inside the column from one address
# with constant offsets and no bounds tests), kernel_test of each, then
# the sieve's classes two rounds each in one run.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tar -xJf .carry/st4.txz -C /tmp
mkdir -p /tmp/out
OUT=/tmp/out timeout 300 test/kernels/compare-revs run /tmp/st4 \
	"literal short,literal rare,literal long,prefix,literal pair,DFA sieved" | tee /tmp/out/log-tail.txt
cp /tmp/out/log-tail.txt $OUT/
tar -czf $OUT/outputs.tgz -C /tmp out
