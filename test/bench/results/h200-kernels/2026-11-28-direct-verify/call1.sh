#!/bin/bash
# Call 1 (H200): verify_probe with its DIRECT mode (the bigram filter, the
# positions that pass checked against their keys' literals from a staged
# span), beside the walks and kernel_bench's "AC 200" (the stream kernel).
# Built here as ../2026-11-28-bulk-copies/call9.sh says (verify_probe and
# kernel_bench in .carry/c9); run with carry [".carry/c9"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name --format=csv,noheader
.carry/c9/verify_probe | tee $OUT/verify.txt
.carry/c9/verify_probe | tee $OUT/verify-2.txt
.carry/c9/kernel_bench 2.1 "AC 200" | tee $OUT/bench-ac200.txt | grep -E "AC 200|plain"
