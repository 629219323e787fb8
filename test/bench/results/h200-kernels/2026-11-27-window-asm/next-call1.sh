#!/bin/bash
# Prepared for the next session (H200), not run yet: how much of rows
# pass's time is the hit path.  skip-hits.patch takes gl_resolve_warp_hits()
# out of the stream kernel (wrong answers: kernel_bench prints MISMATCH;
# an upper bound, not a kernel) for the classes where many rows match.
# Here first:
#   test/kernels/compare-revs studies .carry/s19a \
#       test/bench/results/h200-kernels/2026-11-27-window-asm/skip-hits.patch
# then run this with carry [".carry/s19a.txz"], kind nvidia-h200.  After
# it, the suite at main with a limit the H100 also meets (call 8 was cut
# at 480 s): timeout 560 in call8.sh.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
rm -rf /tmp/out /tmp/s19a
tar -xJf .carry/s19a.txz -C /tmp
mkdir -p /tmp/out
OUT=/tmp/out timeout 420 test/kernels/compare-revs run /tmp/s19a "rows pass,AC 20,AC 200,DFA" |
	tee /tmp/out/log-tail.txt
cp /tmp/out/log-tail.txt $OUT/
tar -czf $OUT/outputs.tgz -C /tmp out
