#!/bin/bash
# Call 2 (H200): kernel_test of c32ee98 (its factored columns planted
# under the list's capacity), then the suite with gpulike.device = gpu but
# for the kernels suite (kernel_test, just run).  Run with carry
# [".carry/bins.txz", ".carry/pg15.txz", ".carry/pg-env"].
set -uo pipefail
cd "$(dirname "$0")/../../../../.."
tar -xJf .carry/bins.txz -C .carry
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu-name.txt
timeout 150 .carry/next/kernel_test > $OUT/kernel_test.txt 2>&1; echo "kernel_test rc $?" >> $OUT/kernel_test.txt
grep -E "^not ok|passed|rc |cached after" $OUT/kernel_test.txt | head -20
rm -rf /tmp/suite
GL_SUITES="unit regress tap concurrency lifecycle bench nopreload oldgpu standby shard" CUDA_ARCHS=90 \
	timeout 420 test/gpu/run --part suite --out /tmp/suite > $OUT/suite.log 2>&1
echo "suite rc=$?"; tail -16 $OUT/suite.log
grep -rh "^not ok" /tmp/suite 2>/dev/null | head
