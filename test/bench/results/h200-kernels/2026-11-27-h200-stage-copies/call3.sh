#!/bin/bash
# Call 3 (H100): the sixteenth session's end (ef8f80e) against main
# (21a6423: stage copies once a chunk), kernel_test of each and the whole
# kernel_bench two rounds each in one run: the H100's figures for the
# kernels of the sixteenth session and this one.  Here first:
#   test/kernels/compare-revs build .carry/s17c ef8f80e main
#   tar -cJf .carry/s17c.txz -C .carry s17c
# then run this with carry [".carry/s17c.txz"], kind nvidia-h100-x1.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tar -xJf .carry/s17c.txz -C /tmp
mkdir -p /tmp/out
OUT=/tmp/out timeout 420 test/kernels/compare-revs run /tmp/s17c | tee /tmp/out/log-tail.txt
cp /tmp/out/log-tail.txt $OUT/
tar -czf $OUT/outputs.tgz -C /tmp out
