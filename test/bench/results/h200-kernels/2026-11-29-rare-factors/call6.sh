#!/bin/bash
# Call 6 (H200): the whole suite with gpulike.device = gpu at the factored
# automaton's tree (call 5's code).  The kernels suite builds and runs
# kernel_test of this revision.
# Run with carry [".carry/pg15.txz", ".carry/pg-env"].
set -uo pipefail
cd "$(dirname "$0")/../../../../.."
rm -rf /tmp/suite
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu-name.txt
GL_SUITES="unit regress tap concurrency lifecycle bench nopreload oldgpu standby shard kernels" CUDA_ARCHS=90 \
	timeout 560 test/gpu/run --part suite --out /tmp/suite > $OUT/suite.log 2>&1
echo "rc=$?"; tail -16 $OUT/suite.log
grep -rh "^not ok" /tmp/suite 2>/dev/null | head
