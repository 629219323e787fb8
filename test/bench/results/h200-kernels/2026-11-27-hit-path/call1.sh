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
# at 480 s): timeout 560.
cd "$(dirname "$0")/../../../../.."
timeout 420 test/kernels/compare-revs carried .carry/s19a.txz "rows pass,AC 20,AC 200,DFA"
