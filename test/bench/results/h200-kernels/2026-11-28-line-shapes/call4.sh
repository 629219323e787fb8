#!/bin/bash
# Call 4 (H100): main (eab6a93) against text-lines (aad2fa0, whose
# kernels main now has: the line stage and the compact tables numbered
# for the text), the same sm_90 binaries as call 2: kernel_test of each,
# the whole bench, two rounds.  .carry/s25b.txz is call 2's s25a.txz
# without text-rows; run with carry [".carry/s25b.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
test/kernels/compare-revs carried .carry/s25b.txz
