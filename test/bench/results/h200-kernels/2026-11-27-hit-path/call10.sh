#!/bin/bash
# Call 10 (H200): the session's start (11cb440) against its end (main),
# the whole kernel_bench, two rounds each; then Nsight Compute's source
# counters for main's 200 literals: the stage's copies, on a line now,
# should take 8 wavefronts an instruction, not 12 (call 5).  Built here:
#   test/kernels/compare-revs build .carry/s20g 11cb440 main
#   tar -cJf .carry/s20g.txz -C .carry s20g
# run with carry [".carry/s20g.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
tmp=$(mktemp -d)
tar -xJf .carry/s20g.txz -C $tmp
mkdir -p $tmp/out
OUT=$tmp/out timeout 420 test/kernels/compare-revs run $tmp/s20g | tee $OUT/log-tail.txt
f=$OUT/main-AC-200
timeout 60 ncu --clock-control none --section SourceCounters -k regex:stream_kernel -c 1 \
	-o $f $tmp/s20g/main/kernel_bench 0.5 "AC 200" > $f.log 2>&1
timeout 60 ncu --import $f.ncu-rep --page source --csv --print-source sass 2>/dev/null | gzip -9 > $f-sass.csv.gz
rm -f $f.ncu-rep
python3 - $f-sass.csv.gz <<'PY'
import csv, gzip, sys
rows = list(csv.reader(gzip.open(sys.argv[1], 'rt')))
ix = {h: i for i, h in enumerate(rows[1])}
w = ideal = n = 0
for r in rows[2:]:
    if 'LDGSTS' in r[ix["Source"]]:
        w += int(r[ix["L1 Wavefronts Shared"]]); ideal += int(r[ix["L1 Wavefronts Shared Ideal"]])
        n += int(r[ix["Instructions Executed"]])
print(f"AC 200, the stage's copies: {w} wavefronts, ideal {ideal}, {n} instructions: {w / max(n, 1):.1f} an instruction")
PY
tar -czf $OUT/outputs.tgz -C $tmp out
