#!/bin/bash
# Call 8 (H200): call 7 again with line-stage mended (its warps' stages overlapped: 1 040 of 1 330 kernel_test checks failed).  Call 7: main (9c683c5) against line-stage (the stream kernel's
# stage by whole 128-byte lines, four lines a copy instruction: the
# shapes then take one 4 kB line buffer a warp, 32 warps, for the compact
# tables) and line-two (the same binaries, GL_STUDY_LINE_WARPS=16: two
# line buffers, 16 warps); kernel_test of both settings, the classes of
# compact tables and two of classed ones, two rounds; Nsight Compute's
# source counters of rows pass for line-stage.  Built here:
#   test/kernels/compare-revs build .carry/s23d main line-stage
#   (line-two: wrappers setting GL_STUDY_LINE_WARPS=16), tar -cJf
# run with carry [".carry/s23d.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
tmp=$(mktemp -d)
tar -xJf .carry/s23d.txz -C $tmp
nvidia-smi --query-gpu=name --format=csv,noheader
for rev in line-stage line-two; do
	timeout 100 $tmp/s23d/$rev/kernel_test > $tmp/kernel_test-$rev.txt 2>&1
	echo "kernel_test $rev: $(grep -E '^# [0-9]+ passed' $tmp/kernel_test-$rev.txt)"
done
OUT=$tmp timeout 260 test/kernels/compare-revs bench $tmp/s23d "rows pass,multi-segment,underscore,ILIKE,AC 1,AC 2,AC 20,AC 200,DFA"
f=$tmp/line-stage-rows-pass
timeout 45 ncu --clock-control none --section SourceCounters -k regex:stream_kernel -c 1 \
	-o $f $tmp/s23d/line-stage/kernel_bench 0.5 "rows pass" > $f.log 2>&1
timeout 30 ncu --import $f.ncu-rep --page source --csv --print-source sass 2>/dev/null | gzip -9 > $f-sass.csv.gz
rm -f $f.ncu-rep
tail -2 $f.log
rm -rf $tmp/s23d
tar -czf $OUT/outputs.tgz -C $tmp .
