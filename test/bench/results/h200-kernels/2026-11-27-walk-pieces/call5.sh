#!/bin/bash
# Call 5 (H200): ldgsts_probe's nine copy patterns under Nsight Compute
# (which sources cost a copy instruction 8 shared-memory wavefronts), then
# the whole suite with gpulike.device = gpu on main (9c683c5, the root's
# twin).  Run with carry [".carry/pg15.txz", ".carry/pg-env",
# ".carry/probe"] (.carry/probe/ldgsts_probe: nvcc -O3 -arch=sm_90
# ldgsts_probe.cu).
set -uo pipefail
cd "$(dirname "$0")/../../../../.."
probe=$(mktemp -d)
for k in 0 1 2 3 4 5 6 7 8; do
	f=$probe/probe-$k
	timeout 20 ncu --clock-control none --section SourceCounters --launch-skip $k --launch-count 1 \
		-o $f .carry/probe/ldgsts_probe > $f.log 2>&1
	timeout 20 ncu --import $f.ncu-rep --page source --csv --print-source sass 2>/dev/null > $f-sass.csv
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
rm -rf /tmp/suite
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu-name.txt
GL_SUITES="unit regress tap concurrency lifecycle bench nopreload oldgpu standby shard kernels" CUDA_ARCHS=90 \
	timeout 480 test/gpu/run --part suite --out /tmp/suite > $OUT/suite.log 2>&1
echo "rc=$?"; tail -16 $OUT/suite.log
grep -rh "^not ok" /tmp/suite 2>/dev/null | head
