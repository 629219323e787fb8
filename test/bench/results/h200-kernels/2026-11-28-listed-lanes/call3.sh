#!/bin/bash
# Call 3 (H200): main against span-entries (each span's eight chunk index
# entries loaded with its text by lanes 0-7 and shuffled to the lanes of
# a step with hits, in both sieves) and span-entries-window (the window
# sieve alone; the probe sieve loads an entry in its steps with
# candidates as before): kernel_test of each, then the sieve classes, two
# rounds.  Built here:
#   test/kernels/compare-revs studies .carry/s34 studies/span-entries.patch \
#     studies/span-entries-window.patch
#   (then delete the branches study/*);
# run with carry [".carry/s34.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 400 test/kernels/compare-revs carried .carry/s34.txz \
	"literal short,literal rare,literal long,prefix,literal pair,DFA sieved"
