#!/bin/bash
# Call 2: main (febc63c) against three studies (studies/): whole-always
# (the sieve window kernel compares the whole window at every step, no
# probe ballot first), one-ballot (probes first, but a step with
# candidates goes to window_hits() without the second ballot) and
# prefetch-entry (the stream kernel loads a chunk's index entry and the
# next chunk's row before stepping it, for the hits' resolution), the
# whole kernel_bench two rounds each in one run, kernel_test of each.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tar -xJf .carry/st2.txz -C /tmp
mkdir -p /tmp/out
OUT=/tmp/out timeout 560 test/kernels/compare-revs run /tmp/st2 | tee /tmp/out/log-tail.txt
cp /tmp/out/log-tail.txt $OUT/
tar -czf $OUT/outputs.tgz -C /tmp out
