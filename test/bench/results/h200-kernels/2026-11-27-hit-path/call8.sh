#!/bin/bash
# Call 8 (H200): main (the hit path in plain integer instructions, the
# stage on a line) against open-row (the row open at the end of a
# thread's chunks followed 32 bytes at a time, stepped whole, no branch a
# byte), the whole kernel_bench, two rounds each.  Built here:
#   test/kernels/compare-revs build .carry/s20f main open-row
#   tar -cJf .carry/s20f.txz -C .carry s20f
# run with carry [".carry/s20f.txz"].
cd "$(dirname "$0")/../../../../.."
timeout 560 test/kernels/compare-revs carried .carry/s20f.txz
