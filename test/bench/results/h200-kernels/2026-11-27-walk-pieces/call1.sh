#!/bin/bash
# Call 1 (H200): main (2f32970, the kernels' PTX of 7394ab7) against
# twin-root, walk-pieces and twin-walk (branches of the twentieth
# session): kernel_test of each, then the classes they touch, two rounds;
# then Nsight Compute's source counters: rows pass for main and
# walk-pieces (the walk), 200 literals for twin-root.  Built here:
#   test/kernels/compare-revs build .carry/s22a main twin-root walk-pieces twin-walk
#   tar -cJf .carry/s22a.txz -C .carry s22a
# run with carry [".carry/s22a.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
timeout 400 test/kernels/compare-revs carried .carry/s22a.txz "rows pass" "AC 1" "AC 20" "AC 200" "AC 200 letters" "AC 40" "multi-segment" "DFA"
tmp=$(mktemp -d)
tar -xJf .carry/s22a.txz -C $tmp
for job in "main rows pass" "walk-pieces rows pass" "twin-root AC 200" "main AC 200"; do
	rev=${job%% *}; class=${job#* }
	f=$OUT/$rev-${class// /-}
	timeout 45 ncu --clock-control none --section SourceCounters -k regex:stream_kernel -c 1 \
		-o $f $tmp/s22a/$rev/kernel_bench 0.5 "$class" > $f.log 2>&1
	timeout 30 ncu --import $f.ncu-rep --page source --csv --print-source sass 2>/dev/null | gzip -9 > $f-sass.csv.gz
	rm -f $f.ncu-rep
	echo "$job: $(tail -c 300 $f.log | tr '\n' ' ')"
done
