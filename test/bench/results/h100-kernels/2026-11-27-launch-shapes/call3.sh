#!/bin/bash
# Call 3: cuobjdump of a gpulike.so built here for the default CUDA_ARCHS; the whole suite with gpulike.device = gpu.
set -o pipefail
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader
xz -dc .carry/gpulike-full.so.xz > /tmp/gpulike-full.so
cuobjdump --list-elf --list-ptx /tmp/gpulike-full.so > $OUT/cuobjdump-full.txt 2>&1
echo "cuobjdump: $(wc -l < $OUT/cuobjdump-full.txt) lines"; grep -o "sm_[0-9]*\|compute_[0-9]*" $OUT/cuobjdump-full.txt | sort | uniq -c
GL_SUITES="unit regress tap concurrency lifecycle bench nopreload oldgpu standby shard kernels" CUDA_ARCHS=90 \
	timeout 540 test/gpu/run --part suite --out $OUT/suite 2>&1 | tail -40
