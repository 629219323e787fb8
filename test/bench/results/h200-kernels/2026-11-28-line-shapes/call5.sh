#!/bin/bash
# Call 5 (H200): before (ba47f2f: the line shapes for every table form)
# against slices (d8f9d1f: the classed tables keep to slice buffers):
# kernel_test of slices, then 200 literals (printable and letters), 40
# literals (wide table) and rows pass, two rounds.  Built here:
#   test/kernels/compare-revs build .carry/s25c ba47f2f HEAD (renamed
#   before, slices; tar -cJf), run with carry [".carry/s25c.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
tmp=$(mktemp -d)
tar -xJf .carry/s25c.txz -C $tmp
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 100 $tmp/s25c/slices/kernel_test > $tmp/kernel_test-slices.txt 2>&1
echo "kernel_test slices: $(grep -E '^# [0-9]+ passed' $tmp/kernel_test-slices.txt)"
gzip -9 -n $tmp/kernel_test-slices.txt
OUT=$tmp timeout 200 test/kernels/compare-revs bench $tmp/s25c "AC 200,AC 200 letters,AC 40,rows pass"
rm -rf $tmp/s25c
tar -czf $OUT/outputs.tgz -C $tmp .
