#!/bin/bash
# Calls 2-5 (H200), each with the binaries of its tree carried in .carry/
# (README.md says what changed between them): kernel_test; the
# Aho-Corasick classes named, main (kb_old, c39e492) and the tree (kb_new),
# two rounds; the whole bench of the tree.
set -o pipefail
C="AC 20,AC 40,AC 200,AC 200 letters,AC 200 rare"
timeout 240 ./.carry/kt_new > $OUT/kernel_test.txt 2>&1; echo "kernel_test rc $?" >> $OUT/kernel_test.txt
grep -E "^not ok|passed|factored|rc " $OUT/kernel_test.txt | head -40
for r in 1 2; do
	for t in old new; do
		echo "== $t round $r"
		timeout 100 ./.carry/kb_$t 2.1 "$C" 2>&1 | grep -E "^AC|plain"
	done
done 2>&1 | tee $OUT/named.txt
timeout 150 ./.carry/kb_new 2.1 > $OUT/bench-new.txt 2>&1
grep -E "^AC|slowdown|plain" $OUT/bench-new.txt | head -80
