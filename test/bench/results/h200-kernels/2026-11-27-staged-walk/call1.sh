#!/bin/bash
# Call 1 (H200): main against open-staged (the open row's walk starts from
# the next chunk's first slice, copied into the stage while the last
# slice is stepped).  Built here:
#   test/kernels/compare-revs build .carry/s21a main open-staged
#   tar -cJf .carry/s21a.txz -C .carry s21a
# run with carry [".carry/s21a.txz"].
cd "$(dirname "$0")/../../../../.."
timeout 540 test/kernels/compare-revs carried .carry/s21a.txz "rows pass,AC 200,AC 20,AC 1,multi-segment,DFA,literal short"
