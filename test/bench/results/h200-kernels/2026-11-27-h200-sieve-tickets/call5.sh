#!/bin/bash
# Call 5: main (6796c63's kernels) against studies/probes-up-front.patch
# (the sieve window kernel tests the probes of a span's four steps
# first, one warp-wide OR of their candidate bits, then the steps with
# candidates), kernel_test of each, the window classes two rounds each
# in one run.  The session's last device seconds: timed to fit them.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tar -xJf .carry/st4.txz -C /tmp
mkdir -p /tmp/out
OUT=/tmp/out timeout 140 test/kernels/compare-revs run /tmp/st4 \
	"literal short,literal rare,prefix,ILIKE libc" | tee /tmp/out/log-tail.txt
cp /tmp/out/log-tail.txt $OUT/
tar -czf $OUT/outputs.tgz -C /tmp out
