#!/bin/bash
# Call 4 (H200): main, early (each slice fetched into its buffer as soon
# as the slice before it there is read: one slice earlier than main) and
# pairs again (call 3: its gain on '%special%requests%' may be its
# earlier fetches).  Built here:
#   test/kernels/compare-revs build .carry/s21d main early pairs
#   tar -cJf .carry/s21d.txz -C .carry s21d
# run with carry [".carry/s21d.txz"].
cd "$(dirname "$0")/../../../../.."
timeout 540 test/kernels/compare-revs carried .carry/s21d.txz "rows pass,multi-segment,AC 1,AC 2,AC 20,AC 200,DFA,literal short,ILIKE libc,underscore,prefix"
