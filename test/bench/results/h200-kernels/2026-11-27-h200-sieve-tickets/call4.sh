#!/bin/bash
# Call 4, on an H100: the thirteenth session's start (b8ada21) against
# main (6796c63's kernels: the stream kernel's tickets and the sieve
# window kernel's one vote), the same binaries as the H200's, kernel_test
# of each, the whole kernel_bench two rounds each in one run.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tar -xJf .carry/h1.txz -C /tmp
mkdir -p /tmp/out
OUT=/tmp/out timeout 330 test/kernels/compare-revs run /tmp/h1 | tee /tmp/out/log-tail.txt
cp /tmp/out/log-tail.txt $OUT/
tar -czf $OUT/outputs.tgz -C /tmp out
