#!/bin/bash
# Call 8 (H200): the suite with gpulike.device = gpu at call 7's code, but
# for the kernels suite (kernel_test ran in call 7) and the bench suite
# (the session's device time left).
# Run with carry [".carry/pg15.txz", ".carry/pg-env"].
set -uo pipefail
cd "$(dirname "$0")/../../../../.."
rm -rf /tmp/suite
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu-name.txt
GL_SUITES="unit regress tap concurrency lifecycle nopreload oldgpu standby shard" CUDA_ARCHS=90 \
	timeout 330 test/gpu/run --part suite --out /tmp/suite > $OUT/suite.log 2>&1
echo "rc=$?"; tail -14 $OUT/suite.log
grep -rh "^not ok" /tmp/suite 2>/dev/null | head
