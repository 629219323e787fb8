#!/bin/bash
# Call 12 (H200): main against two studies of the stalls on global loads
# that the source counters found in the open row's walk and the hit path
# (call 5: a third of their stall samples): pf-open prefetches the open
# row's first line into L1 while a thread's last chunk is stepped;
# pf-both also prefetches a chunk's index entry into L2 once the first
# half of the chunk has hits.  Built here:
#   test/kernels/compare-revs build .carry/s20i main pf-open pf-both
#   tar -cJf .carry/s20i.txz -C .carry s20i
# run with carry [".carry/s20i.txz"].
cd "$(dirname "$0")/../../../../.."
timeout 540 test/kernels/compare-revs carried .carry/s20i.txz "rows pass,AC 20,AC 200,multi-segment,DFA"
