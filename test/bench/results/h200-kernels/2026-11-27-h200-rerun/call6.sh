#!/bin/bash
# Call 6: main (df8b92d) against the stream kernel's warps taking their
# chunks from a counter (studies/tickets.patch: 32 groups of four chunks
# a ticket, then single chunks for the last 64 a warp;
# tickets-no-tail.patch: groups of four to the end), kernel_test of
# each, the stream classes at 2.1 GB two rounds each in one run, then
# each at 0.5 GB once.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tar -xJf .carry/st3.txz -C /tmp
mkdir -p /tmp/out
CLASSES="multi-segment,ILIKE libc,rows pass,AC 2,AC 20,AC 200,DFA,DFA wide"
OUT=/tmp/out timeout 420 test/kernels/compare-revs run /tmp/st3 "$CLASSES" | tee /tmp/out/log-tail.txt
for rev in main study-tickets study-tickets-no-tail; do
	echo "== 0.5 GB, $rev" | tee -a /tmp/out/log-tail.txt
	timeout 40 /tmp/st3/$rev/kernel_bench 0.5 "$CLASSES" > /tmp/out/bench-0.5-$rev.txt 2>&1
	grep -E "^[a-zA-Z]" /tmp/out/bench-0.5-$rev.txt | grep -v "^class" | cut -c1-15,36-60,95- | tee -a /tmp/out/log-tail.txt
done
cp /tmp/out/log-tail.txt $OUT/
tar -czf $OUT/outputs.tgz -C /tmp out
