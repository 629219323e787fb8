#!/bin/bash
# Call 1: main (80112ad) against the four studies prepared last session
# (../2026-11-27-h200-sieve-tickets/studies/): entry-in-hits and
# entry-unroll-6 (the sieve kernels load a step's chunk index entry in
# the hit path only; six steps in flight), windowed (Aho-Corasick lists of
# letters without the class load) and fold-on-demand (folded tables only
# where no stream kernel runs); kernel_test of each, then kernel_bench of
# every class but the adversarial text, two rounds each, in one run.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tar -xJf .carry/st1.txz -C /tmp
mkdir -p /tmp/out
OUT=/tmp/out timeout 540 test/kernels/compare-revs run /tmp/st1 \
	"literal short,literal rare,literal long,prefix,literal pair,DFA sieved,multi-segment,rows pass,AC 1,AC 2,AC 20,AC 200,AC 40,DFA,DFA wide" |
	tee /tmp/out/log-tail.txt
cp /tmp/out/log-tail.txt $OUT/
tar -czf $OUT/outputs.tgz -C /tmp out
