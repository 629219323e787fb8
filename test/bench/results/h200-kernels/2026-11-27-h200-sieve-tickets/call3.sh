#!/bin/bash
# Call 3: main (6796c63: one vote in the sieve window kernel) against
# studies/hit-lanes-load.patch (window_hits() loads the chunk index
# entry only in lanes with hits), the sieve classes two rounds each in
# one run; then the whole suite with gpulike.device = gpu on main (the
# kernel tests included).
set -uo pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu-name.txt
tar -xJf .carry/st3.txz -C /tmp
mkdir -p /tmp/out
OUT=/tmp/out timeout 100 test/kernels/compare-revs run /tmp/st3 \
	"literal short,literal rare,literal long,prefix,literal pair,DFA sieved" | tee $OUT/compare.txt
tar -czf $OUT/outputs.tgz -C /tmp out
GL_SUITES="unit regress tap concurrency lifecycle bench nopreload oldgpu standby shard kernels" CUDA_ARCHS=90 \
	timeout 460 test/gpu/run --part suite --out /tmp/suite > $OUT/suite.log 2>&1
echo "rc=$?"; tail -16 $OUT/suite.log
grep -rh "^not ok" /tmp/suite 2>/dev/null | head
