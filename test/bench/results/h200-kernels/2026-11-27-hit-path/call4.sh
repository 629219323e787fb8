#!/bin/bash
# Call 4 (H200): main against the leaner hit path (branch lean: the
# chunk's separators counted by plain subtraction and exact byte tests
# instead of emulated SIMD, a 32-row mask, the list written through a
# pointer) and two studies on top of it that prefetch each chunk's index
# entry while the chunk is stepped (lean-l1: into L1, lean-l2: into L2).
# Built here:
#   test/kernels/compare-revs build .carry/s20b main lean lean-l1 lean-l2
#   tar -cJf .carry/s20b.txz -C .carry s20b
# run with carry [".carry/s20b.txz"].
cd "$(dirname "$0")/../../../../.."
timeout 540 test/kernels/compare-revs carried .carry/s20b.txz "rows pass,AC 1,AC 20,AC 200,DFA,multi-segment"
