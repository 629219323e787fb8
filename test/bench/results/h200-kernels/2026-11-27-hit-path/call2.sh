#!/bin/bash
# Call 2 (H200): main against the lane table (lane-table.patch on main: a copy of a
# small byte DFA for each lane, on its bank; "AC 1" takes it) and two
# studies of the hit path (wrong answers, MISMATCH by design):
# no-resolve.patch keeps the records and never resolves them, no-list.patch
# sets the rows the chunk index gives and reads no word again.  Built here:
#   (branches banked = main + lane-table.patch, study/NAME = main + NAME.patch)
#   test/kernels/compare-revs build .carry/s20a main banked study/no-resolve study/no-list
#   tar -cJf .carry/s20a.txz -C .carry s20a
# run with carry [".carry/s20a.txz"].
cd "$(dirname "$0")/../../../../.."
timeout 540 test/kernels/compare-revs carried .carry/s20a.txz "rows pass,AC 1,AC 20,AC 200,DFA"
