#!/bin/bash
# Call 1 (H200): main
# against window-asm.patch (the windowed table's load as one PTX
# multiply-add and shared load, the table's base and the column added
# off the state's chain; ptxas: the 1024-thread shape spills none, as
# before stage copies once a chunk).  The SASS of both first (the
# IMAD.IADD count: 498 in main, 48 in ef8f80e), then kernel_test of each
# and the whole kernel_bench, two rounds.  Here first:
#   test/kernels/compare-revs studies .carry/s18a \
#       test/bench/results/h200-kernels/2026-11-27-window-asm/window-asm.patch
# then run this with carry [".carry/s18a.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name --format=csv,noheader
rm -rf /tmp/out /tmp/s18a
tar -xJf .carry/s18a.txz -C /tmp
mkdir -p /tmp/out
for rev in main study-window-asm; do
	cuobjdump -sass /tmp/s18a/$rev/kernel_bench |
		awk '/Function : /{p = /stream_kernel.*WindowedAutomatonLm6E/} p' > /tmp/out/sass-$rev.txt
	echo "$rev: IMAD.IADD $(grep -c IMAD.IADD /tmp/out/sass-$rev.txt), LDS $(grep -c LDS /tmp/out/sass-$rev.txt)"
	gzip -9 /tmp/out/sass-$rev.txt
done
OUT=/tmp/out timeout 330 test/kernels/compare-revs run /tmp/s18a | tee /tmp/out/log-tail.txt
cp /tmp/out/log-tail.txt $OUT/
tar -czf $OUT/outputs.tgz -C /tmp out
