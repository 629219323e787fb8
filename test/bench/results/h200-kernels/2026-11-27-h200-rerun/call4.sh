#!/bin/bash
# Call 4: main (7563139) against two forms of the stream kernel's last
# round shared by all threads (studies/tail-split.patch: the whole rounds
# in a loop of constant groups, then one round of smaller ones;
# tail-loop.patch: one loop whose group shrinks in the last round), the
# whole kernel_bench two rounds each in one run, kernel_test of each.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tar -xJf .carry/st2.txz -C /tmp
mkdir -p /tmp/out
OUT=/tmp/out timeout 560 test/kernels/compare-revs run /tmp/st2 | tee /tmp/out/log-tail.txt
cp /tmp/out/log-tail.txt $OUT/
tar -czf $OUT/outputs.tgz -C /tmp out
