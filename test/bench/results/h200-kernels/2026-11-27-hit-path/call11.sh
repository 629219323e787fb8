#!/bin/bash
# Call 11 (H200): main against open-row-parts (the open row's four-byte
# parts with no separator stepped as the scan steps them, the one with
# the separator byte by byte).  Built here:
#   test/kernels/compare-revs build .carry/s20h main open-row-parts
#   tar -cJf .carry/s20h.txz -C .carry s20h
# run with carry [".carry/s20h.txz"].
cd "$(dirname "$0")/../../../../.."
timeout 540 test/kernels/compare-revs carried .carry/s20h.txz "rows pass,AC 20,AC 200,multi-segment,DFA"
