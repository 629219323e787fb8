#!/bin/bash
# Call 7: the whole suite with gpulike.device = gpu on main (9ef6d87: the
# stream kernel's tickets; the kernel tests included), then, in the time
# left, main's whole kernel_bench once (the adversarial ratios).
set -uo pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu-name.txt
GL_SUITES="unit regress tap concurrency lifecycle bench nopreload oldgpu standby shard kernels" CUDA_ARCHS=90 \
	timeout 460 test/gpu/run --part suite --out /tmp/suite > $OUT/suite.log 2>&1
echo "rc=$?"; tail -16 $OUT/suite.log
grep -rh "^not ok" /tmp/suite 2>/dev/null | head
timeout 60 make -s -C test/kernels CUDA_ARCHS=90 -j16 >/dev/null 2>&1 &&
	timeout 70 test/kernels/build/kernel_bench > $OUT/kernel_bench.txt 2>&1
grep -E "adversarial|ratio" $OUT/kernel_bench.txt | cut -c1-15,36-200 | head -30
