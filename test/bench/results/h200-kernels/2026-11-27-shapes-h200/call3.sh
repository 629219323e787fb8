#!/bin/bash
# Call 3: the wide table with 16-bit entries (study/wide16) against main
# (8d91c2e, 32-bit entries): kernel_test of each, "DFA wide" (150 states,
# the one class on the wide table) and two compact classes, two rounds.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tar -xJf .carry/cmp.txz -C /tmp
timeout 400 test/kernels/compare-revs run /tmp/cmp "DFA wide,DFA,multi-segment"
