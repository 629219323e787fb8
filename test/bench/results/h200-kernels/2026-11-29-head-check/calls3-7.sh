#!/bin/bash
# Calls 3-7 (H200), each with the binaries of its tree in .carry/next and
# main at 3360059 in .carry/head (README.md says what changed between
# them): kernel_test; the classes named, both binaries, two rounds; the
# whole bench of the tree (with the column whose sample misses the
# factors).  Calls 3-4 named the five Aho-Corasick classes alone (no "DFA
# wide").  The binaries travel in .carry/bins.txz (head/, next/); run with
# carry [".carry/bins.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
tar -xJf .carry/bins.txz -C .carry
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu-name.txt
timeout 200 .carry/next/kernel_test > $OUT/kernel_test.txt 2>&1; echo "kernel_test rc $?" >> $OUT/kernel_test.txt
grep -E "^not ok|passed|rc " $OUT/kernel_test.txt | head -20
C="AC 20,AC 40,AC 200,AC 200 letters,AC 200 rare,DFA wide"
for r in 1 2; do
	for t in head next; do
		echo "== $t round $r"
		timeout 100 .carry/$t/kernel_bench 2.1 "$C" 2>&1 | grep -E "^AC|^DFA|plain"
	done
done 2>&1 | tee $OUT/named.txt
timeout 200 .carry/next/kernel_bench 2.1 > $OUT/bench.txt 2>&1; echo "bench rc $?"
grep -E "%$|plain|slowdown" $OUT/bench.txt | head -70
grep -A3 "sample missing" $OUT/bench.txt
