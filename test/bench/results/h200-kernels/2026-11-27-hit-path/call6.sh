#!/bin/bash
# Call 6 (H200): main against lean (2fed03e, the hit path in plain
# integer instructions) and lean with the stage on a 128-byte line after
# the table (2ef0b47).  Built here:
#   test/kernels/compare-revs build .carry/s20d main 2fed03e 2ef0b47
#   tar -cJf .carry/s20d.txz -C .carry s20d
# run with carry [".carry/s20d.txz"].
cd "$(dirname "$0")/../../../../.."
timeout 540 test/kernels/compare-revs carried .carry/s20d.txz "AC 200,AC 40,rows pass,multi-segment"
