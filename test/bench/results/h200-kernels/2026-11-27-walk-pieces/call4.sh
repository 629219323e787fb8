#!/bin/bash
# Call 4 (H200): ldgsts_probe's copies under Nsight Compute (call 3's
# outputs were more files than a call brings back: everything in one
# tarball now), then the whole kernel_bench, the session's start
# (7394ab7) against its end (main, 9c683c5: the root's twin), kernel_test
# of both, two rounds.  Built here:
#   test/kernels/compare-revs build .carry/s23b 7394ab7 main
#   tar -cJf .carry/s23b.txz -C .carry s23b
#   nvcc -O3 -arch=sm_90 ldgsts_probe.cu -o .carry/probe/ldgsts_probe
# run with carry [".carry/s23b.txz", ".carry/probe"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
probe=$(mktemp -d)
for k in 0 1 2 3 4; do
	f=$probe/probe-$k
	timeout 40 ncu --clock-control none --section SourceCounters --launch-skip $k --launch-count 1 \
		-o $f .carry/probe/ldgsts_probe > $f.log 2>&1
	timeout 30 ncu --import $f.ncu-rep --page source --csv --print-source sass 2>/dev/null > $f-sass.csv
	rm -f $f.ncu-rep
	python3 - $f-sass.csv $k <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
ix = {h: i for i, h in enumerate(rows[1])}
w = ideal = n = 0
for r in rows[2:]:
    if 'LDGSTS' in r[ix["Source"]]:
        w += int(r[ix["L1 Wavefronts Shared"]] or 0); ideal += int(r[ix["L1 Wavefronts Shared Ideal"]] or 0)
        n += int(r[ix["Instructions Executed"]] or 0)
print(f"probe {sys.argv[2]}: LDGSTS {n} instructions, {w} shared wavefronts ({w / max(n, 1):.2f} each), ideal {ideal}")
PY
done
tar -czf $OUT/probe.tgz -C $probe .
timeout 420 test/kernels/compare-revs carried .carry/s23b.txz
