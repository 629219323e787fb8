#!/bin/bash
# Call 7 (H100): main against the session's kernels (2ef0b47: the hit
# path in plain integer instructions, the stage on a line), the whole
# kernel_bench, two rounds each: the same binaries as the H200's.  Built here:
#   test/kernels/compare-revs build .carry/s20e main 2ef0b47
#   tar -cJf .carry/s20e.txz -C .carry s20e
# run with carry [".carry/s20e.txz"], kind nvidia-h100-x1.
cd "$(dirname "$0")/../../../../.."
timeout 560 test/kernels/compare-revs carried .carry/s20e.txz
