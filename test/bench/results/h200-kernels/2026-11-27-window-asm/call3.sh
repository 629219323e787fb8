#!/bin/bash
# Call 3 (H100): the seventeenth session's end (278edcb) against the
# windowed load as one multiply-add (its study branch, the kernel main
# has since 34844b9), kernel_test of each and the whole kernel_bench, two
# rounds each in one run: the H100's figures for this session's kernel.
# The binaries are call 1's (.carry/s18a.txz, built here with
#   test/kernels/compare-revs studies .carry/s18a window-asm.patch);
# run with carry [".carry/s18a.txz"], kind nvidia-h100-x1.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
rm -rf /tmp/out /tmp/s18a
tar -xJf .carry/s18a.txz -C /tmp
mkdir -p /tmp/out
OUT=/tmp/out timeout 420 test/kernels/compare-revs run /tmp/s18a | tee /tmp/out/log-tail.txt
cp /tmp/out/log-tail.txt $OUT/
tar -czf $OUT/outputs.tgz -C /tmp out
