#!/bin/bash
# Call 2: the whole suite with gpulike.device = gpu on main (the sieve back
# to four steps after call 1; the kernel tests included).
set -uo pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu-name.txt
GL_SUITES="unit regress tap concurrency lifecycle bench nopreload oldgpu standby shard kernels" CUDA_ARCHS=90 \
	timeout 540 test/gpu/run --part suite --out /tmp/suite > $OUT/suite.log 2>&1
echo "rc=$?"; tail -30 $OUT/suite.log
grep -rh "^not ok" /tmp/suite 2>/dev/null | head
tar -C /tmp -czf $OUT/suite.tgz suite 2>/dev/null
