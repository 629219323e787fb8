#!/bin/bash
# Call 3 (H200): c32ee98's kernel_bench on a 60 GB column: the literal,
# the multi-segment, the wide table and the Aho-Corasick classes (the
# candidates' list and the give-up path are new since the last 60 GB run,
# 2026-11-29-head-check call 2).  Run with carry [".carry/bins.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
tar -xJf .carry/bins.txz -C .carry
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu-name.txt
C="literal short,multi-segment,DFA wide,AC 20,AC 40,AC 200,AC 200 letters,AC 200 rare"
( time timeout 560 .carry/next/kernel_bench 60 "$C" ) > $OUT/bench-60gb.txt 2>&1
echo "rc $?"
grep -vE "^ok|^#  " $OUT/bench-60gb.txt | tail -20
