#!/bin/bash
# Call 5 (H100): the windowed table's states in order
# (7b92b7f) against numbered for the banks on the column's sample (main
# at the commit after it): kernel_test of each, then kernel_bench's
# "AC 200" and "AC 20" (the only list whose table is windowed is 200
# literals'), two rounds each.  Here first:
#   test/kernels/compare-revs build .carry/s18b 7b92b7f main
#   tar -cJf .carry/s18b.txz -C .carry s18b
# then run this with carry [".carry/s18b.txz"], kind nvidia-h100-x1.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
rm -rf /tmp/out /tmp/s18b
tar -xJf .carry/s18b.txz -C /tmp
mkdir -p /tmp/out
OUT=/tmp/out timeout 400 test/kernels/compare-revs run /tmp/s18b "AC 200,AC 20" | tee /tmp/out/log-tail.txt
cp /tmp/out/log-tail.txt $OUT/
tar -czf $OUT/outputs.tgz -C /tmp out
