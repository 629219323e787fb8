#!/bin/bash
# Call 2 (H200): main at 3360059 on a 60 GB column: the literal, the
# multi-segment, the wide table and the Aho-Corasick classes (the factored
# automaton is new since the last 60 GB run, 2026-11-27-h200-rerun).
# Run with carry [".carry/head"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu-name.txt
C="literal short,multi-segment,DFA wide,AC 20,AC 40,AC 200,AC 200 letters,AC 200 rare"
( time timeout 560 .carry/head/kernel_bench 60 "$C" ) > $OUT/bench-60gb.txt 2>&1
echo "rc $?"
grep -vE "^ok|^#  " $OUT/bench-60gb.txt | tail -20
