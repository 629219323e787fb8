#!/bin/bash
# Calls 9 (an H100 came) and 10 (H200): the session's start (278edcb) against its end (main at
# be7d8d2: the windowed load as one multiply-add, the states numbered
# for the banks; kernel_bench's "AC 200 letters" is main's alone):
# kernel_test of each and the whole kernel_bench, two rounds each.
# Here first:
#   test/kernels/compare-revs build .carry/s18d 278edcb main
#   tar -cJf .carry/s18d.txz -C .carry s18d
# then run this with carry [".carry/s18d.txz"], kind nvidia-h200.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
rm -rf /tmp/out /tmp/s18d
tar -xJf .carry/s18d.txz -C /tmp
mkdir -p /tmp/out
OUT=/tmp/out timeout 420 test/kernels/compare-revs run /tmp/s18d | tee /tmp/out/log-tail.txt
cp /tmp/out/log-tail.txt $OUT/
tar -czf $OUT/outputs.tgz -C /tmp out
