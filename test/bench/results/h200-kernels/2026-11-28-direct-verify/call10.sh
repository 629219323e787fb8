#!/bin/bash
# Call 10 (H200; ready, not run: no device time was left): the set sieve
# whose listed lanes carry their own 48 bytes of text (set-windows.patch),
# so that they outlive their span and every round of checks takes 32,
# against main: kernel_test of each, then kernel_bench's "AC 200 rare"
# beside "AC 200", "AC 40" and "AC 200 letters", two rounds.  Built here:
#   test/kernels/compare-revs studies .carry/s32 \
#     test/bench/results/h200-kernels/2026-11-28-direct-verify/set-windows.patch
#   (then delete the branch study/set-windows);
# run with carry [".carry/s32.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
test/kernels/compare-revs carried .carry/s32.txz "AC 200 rare,AC 200,AC 40,AC 200 letters"
