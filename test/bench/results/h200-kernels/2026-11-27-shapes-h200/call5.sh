#!/bin/bash
# Call 5: twin banks (the compact table's flagged twin at value ^ 0x41,
# tables in 64-row blocks; study/twin-main) on top of main (68b0501):
# kernel_test of each, the whole kernel_bench, two rounds each.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tar -xJf .carry/cmp.txz -C /tmp
timeout 560 test/kernels/compare-revs run /tmp/cmp
