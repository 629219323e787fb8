#!/bin/bash
# Call 5: the 16-bit compact table (study/compact16) against 313743e, kernel_bench only, one round each.
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader
for r in 313743e study-compact16 313743e study-compact16; do
	echo "== $r"
	timeout 60 stdbuf -oL .carry/cmp/$r/kernel_bench 2.1 "multi-segment,ILIKE libc,rows pass,AC 1,DFA" 2>&1 | tail -7 | tee -a $OUT/bench-$r.txt
done
