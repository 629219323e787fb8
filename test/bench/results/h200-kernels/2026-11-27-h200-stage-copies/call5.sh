#!/bin/bash
# Call 5 (H200): main (21a6423's kernels) against window-base.patch (the
# windowed load's column part added before the state's product: call 4's
# SASS showed main's 1024-thread windowed kernel adding the table's base
# (a register, where ef8f80e had it uniform) after the IMAD, one more
# instruction on each byte's dependent chain).  The SASS first, then
# kernel_test of each and kernel_bench of three classes, two rounds.
# Here first:
#   test/kernels/compare-revs build .carry/s17d main study/window-base
#   tar -cJf .carry/s17d.txz -C .carry s17d
# then run this with carry [".carry/s17d.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name --format=csv,noheader
tar -xJf .carry/s17d.txz -C /tmp
mkdir -p /tmp/out
for rev in main study-window-base; do
	cuobjdump -sass /tmp/s17d/$rev/kernel_bench |
		awk '/Function : /{p = /stream_kernel.*WindowedAutomatonLm6E/} p' > /tmp/out/sass-$rev.txt
	echo "$rev: IMAD.IADD $(grep -c IMAD.IADD /tmp/out/sass-$rev.txt), LDS $(grep -c LDS /tmp/out/sass-$rev.txt)"
	gzip -9 /tmp/out/sass-$rev.txt
done
OUT=/tmp/out timeout 200 test/kernels/compare-revs run /tmp/s17d "AC 200,AC 20,DFA wide" | tee /tmp/out/log-tail.txt
cp /tmp/out/log-tail.txt $OUT/
tar -czf $OUT/outputs.tgz -C /tmp out
