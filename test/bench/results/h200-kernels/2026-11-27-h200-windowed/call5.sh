#!/bin/bash
# Call 5 (H200): last session's main (80112ad) against this session's
# main (the sieve's entry in the hit path and span loads without bounds
# tests, the classed table's windows, folded tables on demand, launch
# sizes kept), kernel_test of each, then the whole kernel_bench
# (adversarial text included) two rounds each in one run.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tar -xJf .carry/st5.txz -C /tmp
mkdir -p /tmp/out
OUT=/tmp/out timeout 400 test/kernels/compare-revs run /tmp/st5 | tee /tmp/out/log-tail.txt
cp /tmp/out/log-tail.txt $OUT/
tar -czf $OUT/outputs.tgz -C /tmp out
