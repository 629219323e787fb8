#!/bin/bash
# Call 4 (H200): the SASS of the windowed table's 1024-thread stream
# kernel (the shape 200 literals get) before and after stage copies once
# a chunk, to find where its 4 spilled bytes are; then the whole suite
# with gpulike.device = gpu on main (21a6423; the kernel tests included).
# Run with carry [".carry/pg15.txz", ".carry/pg-env", ".carry/s17c.txz"].
set -uo pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu-name.txt
tar -xJf .carry/s17c.txz -C /tmp
for rev in ef8f80e main; do
	cuobjdump -sass /tmp/s17c/$rev/kernel_bench |
		awk '/Function : /{p = /stream_kernel.*WindowedAutomatonLm6E/} p' |
		gzip -9 > $OUT/windowed-1024-sass-$rev.txt.gz
done
GL_SUITES="unit regress tap concurrency lifecycle bench nopreload oldgpu standby shard kernels" CUDA_ARCHS=90 \
	timeout 460 test/gpu/run --part suite --out /tmp/suite > $OUT/suite.log 2>&1
echo "rc=$?"; tail -16 $OUT/suite.log
grep -rh "^not ok" /tmp/suite 2>/dev/null | head
