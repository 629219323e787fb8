#!/bin/bash
# Call 5 (H200): main against lean (the hit path in plain integer
# instructions), the whole kernel_bench, two rounds each; then Nsight
# Compute's source counters for lean (rows pass, 200 literals) and for
# study-one-buffer (lean with every table in 1024-thread blocks of one
# buffer, the shape 200 literals take) on rows pass: are the stage
# copies' extra wavefronts (LDGSTS: 2x the ideal for rows pass, 3x for
# 200 literals in call 3) the shape's?  Built here:
#   test/kernels/compare-revs build .carry/s20c main lean study-one-buffer
#   tar -cJf .carry/s20c.txz -C .carry s20c
# run with carry [".carry/s20c.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
tmp=$(mktemp -d)
tar -xJf .carry/s20c.txz -C $tmp
mv $tmp/s20c/study-one-buffer $tmp/
mkdir -p $tmp/out
OUT=$tmp/out timeout 400 test/kernels/compare-revs run $tmp/s20c | tee $OUT/log-tail.txt
mkdir -p $OUT/ncu
for c in "s20c/lean:rows pass" "s20c/lean:AC 200" "study-one-buffer:rows pass"; do
	rev=${c%%:*}; class=${c#*:}
	f=$OUT/ncu/$(basename $rev)-${class// /-}
	timeout 60 ncu --clock-control none --section SourceCounters --section SpeedOfLight \
		-k regex:stream_kernel -c 1 -o $f $tmp/$rev/kernel_bench 0.5 "$class" > $f.log 2>&1
	grep -E "%$" $f.log | tail -1
	timeout 60 ncu --import $f.ncu-rep --page source --csv --print-source sass 2>/dev/null | gzip -9 > $f-sass.csv.gz
	timeout 60 ncu --import $f.ncu-rep --page details 2>&1 | grep -E "Duration|Throughput" | head -8
	rm -f $f.ncu-rep
done
tar -czf $OUT/outputs.tgz -C $tmp out
