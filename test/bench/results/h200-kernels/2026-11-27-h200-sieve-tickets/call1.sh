#!/bin/bash
# Call 1: main (febc63c) against the two studies prepared last session
# (studies/sieve-tickets.patch: the sieve's two kernels take their spans
# by tickets through gl_take_ticket(), shared with the stream kernel;
# walk-tickets.patch: the same plus the Aho-Corasick skim), kernel_test
# of each, then the whole kernel_bench (adversarial rows included) two
# rounds each in one run.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tar -xJf .carry/st.txz -C /tmp
mkdir -p /tmp/out
OUT=/tmp/out timeout 540 test/kernels/compare-revs run /tmp/st | tee /tmp/out/log-tail.txt
cp /tmp/out/log-tail.txt $OUT/
tar -czf $OUT/outputs.tgz -C /tmp out
