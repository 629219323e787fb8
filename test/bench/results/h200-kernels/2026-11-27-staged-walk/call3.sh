#!/bin/bash
# Call 3 (H200): main against pairs and pairs-lean (two slices copied at
# once, eight lanes a chunk's 128 bytes, so that a copy instruction reads
# four whole lines, not eight halves: are the copies' 8 shared-memory
# wavefronts an instruction, twice the ideal, the lines'?  pairs keeps
# eight source pointers, pairs-lean computes each copy's), compact-table
# classes and 200 literals; then Nsight Compute's source counters for
# rows pass, main and pairs-lean: the copies' wavefronts.  Built here:
#   test/kernels/compare-revs build .carry/s21c main pairs pairs-lean
#   tar -cJf .carry/s21c.txz -C .carry s21c
# run with carry [".carry/s21c.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
tmp=$(mktemp -d)
tar -xJf .carry/s21c.txz -C $tmp
mkdir -p $tmp/out
OUT=$tmp/out timeout 330 test/kernels/compare-revs run $tmp/s21c "rows pass,multi-segment,AC 1,AC 20,AC 200,DFA,literal short,ILIKE libc" | tee $OUT/log-tail.txt
for rev in main pairs-lean; do
	f=$OUT/$rev-rows-pass
	timeout 60 ncu --clock-control none --section SourceCounters -k regex:stream_kernel -c 1 \
		-o $f $tmp/s21c/$rev/kernel_bench 0.5 "rows pass" > $f.log 2>&1
	timeout 60 ncu --import $f.ncu-rep --page source --csv --print-source sass 2>/dev/null | gzip -9 > $f-sass.csv.gz
	rm -f $f.ncu-rep
	python3 - $f-sass.csv.gz $rev <<'PY'
import csv, gzip, sys
rows = list(csv.reader(gzip.open(sys.argv[1], 'rt')))
ix = {h: i for i, h in enumerate(rows[1])}
tot = {}
for r in rows[2:]:
    op = r[ix["Source"]].split()[0] if r[ix["Source"]].split() else ''
    if op.startswith('@'):
        op = r[ix["Source"]].split()[1]
    op = op.split('.')[0]
    t = tot.setdefault(op, [0, 0, 0])
    t[0] += int(r[ix["L1 Wavefronts Shared"]] or 0); t[1] += int(r[ix["L1 Wavefronts Shared Ideal"]] or 0)
    t[2] += int(r[ix["Instructions Executed"]] or 0)
for op in ('LDGSTS', 'LDS', 'STS'):
    w, ideal, n = tot.get(op, [0, 0, 0])
    print(f"{sys.argv[2]} rows pass {op}: {w} wavefronts, ideal {ideal}, {n} instructions: {w / max(n, 1):.2f} an instruction")
print(f"{sys.argv[2]} rows pass, all shared wavefronts: {sum(t[0] for t in tot.values())}, instructions {sum(t[2] for t in tot.values())}")
PY
done | tee -a $OUT/log-tail.txt
tar -czf $OUT/outputs.tgz -C $tmp out
