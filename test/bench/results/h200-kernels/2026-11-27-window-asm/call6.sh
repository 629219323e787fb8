#!/bin/bash
# Calls 6 (H200) and 7 (H100): the windowed table's states in order
# (study/base-numbering: 7b92b7f with kernel_bench's new case) against
# numbered for the banks on the column's sample (main at 906e411):
# kernel_test of each, then kernel_bench's "AC 200" (the printable
# window) and "AC 200 letters" (the letters' window), two rounds each.
# Here first:
#   git branch study/base-numbering 7b92b7f; cherry-pick 906e411 onto it
#   test/kernels/compare-revs build .carry/s18c study/base-numbering main
#   tar -cJf .carry/s18c.txz -C .carry s18c
# then run this with carry [".carry/s18c.txz"], kind nvidia-h200 (call 6)
# or nvidia-h100-x1 (call 7).
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
rm -rf /tmp/out /tmp/s18c
tar -xJf .carry/s18c.txz -C /tmp
mkdir -p /tmp/out
OUT=/tmp/out timeout 400 test/kernels/compare-revs run /tmp/s18c "AC 200,AC 200 letters" | tee /tmp/out/log-tail.txt
cp /tmp/out/log-tail.txt $OUT/
tar -czf $OUT/outputs.tgz -C /tmp out
