#!/bin/bash
# Call 2 (H200): call 1's bench again (its compare-revs ran each class
# apart, building the 2.1 GB column for each, and ran past its timeout
# before the table): main, twin-root, walk-pieces, twin-walk, the classes
# as one list, two rounds, without kernel_test (3 999 of 3 999 each in
# call 1).  Carry [".carry/s22a.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
tmp=$(mktemp -d)
tar -xJf .carry/s22a.txz -C $tmp
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 560 test/kernels/compare-revs bench $tmp/s22a "rows pass,AC 1,AC 2,AC 20,AC 200,AC 200 letters,AC 40,multi-segment,DFA"
