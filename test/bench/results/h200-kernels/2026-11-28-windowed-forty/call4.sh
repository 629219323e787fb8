#!/bin/bash
# Call 4 (H200): kernel_test and kernel_bench's DFA classes of main after
# the test programs' DFA specs went through one helper (test_dfa.h): the
# same answers as before (kernel_test against the CPU engine; the DFA
# classes' match counts against call 2's).  Carry: test/kernels/
# compare-revs build .carry/s39 HEAD, request_bench removed, tar -cJf
# .carry/s39.txz -C .carry s39; run with carry [".carry/s39.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
tmp=$(mktemp -d)
tar -xJf .carry/s39.txz -C "$tmp" || exit 1
bin=$tmp/s39/HEAD
cat "$bin/rev"
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 150 "$bin/kernel_test" > $OUT/kernel_test.txt 2>&1
tail -1 $OUT/kernel_test.txt
grep "^not ok" $OUT/kernel_test.txt | head
timeout 120 "$bin/kernel_bench" 2.1 "DFA,DFA wide,DFA sieved,AC 40" > $OUT/bench-dfa.txt 2>&1
grep "^DFA\|^AC\|plain" $OUT/bench-dfa.txt
gzip $OUT/kernel_test.txt
