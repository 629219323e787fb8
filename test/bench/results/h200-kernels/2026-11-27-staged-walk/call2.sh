#!/bin/bash
# Call 2 (H200): main, open-staged (call 1) and open-staged2 (two slices
# of the next chunk staged where the stage has two buffers or more, the
# column's tail pad 128 bytes).  Built here:
#   test/kernels/compare-revs build .carry/s21b main open-staged open-staged2
#   tar -cJf .carry/s21b.txz -C .carry s21b
# run with carry [".carry/s21b.txz"].
cd "$(dirname "$0")/../../../../.."
timeout 540 test/kernels/compare-revs carried .carry/s21b.txz "rows pass,AC 200,AC 20,AC 1,multi-segment,DFA,literal short,ILIKE libc"
