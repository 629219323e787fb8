#!/bin/bash
# Call 2: where the shapes lost a point on small tables (call 1), and two
# studies on top: db0c5c5 (before the shapes), main (619e238),
# study/shape-memo (the shape chosen once per resident program),
# study/memo-twin (+ twin banks), study/regs48 (memo + 48 registers for
# 256-thread blocks: 5 blocks an SM), study/regs48-twin; stream classes,
# two rounds each, and kernel_test of each.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tar -xJf .carry/cmp.txz -C /tmp
timeout 540 test/kernels/compare-revs run /tmp/cmp "multi-segment,ILIKE libc,rows pass,AC 1,AC 20,AC 200,DFA,DFA wide"
