#!/bin/bash
# Call 4: this session's start (619e238) against main (68b0501: the shape
# chosen once, the 16-bit wide table): kernel_test of each, the whole
# kernel_bench, two rounds each.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tar -xJf .carry/cmp.txz -C /tmp
timeout 560 test/kernels/compare-revs run /tmp/cmp
