#!/bin/bash
# Call 6: the whole suite with gpulike.device = gpu on main (the shape
# chosen once, the 16-bit wide table).
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name --format=csv,noheader
git log --oneline -1 2>/dev/null
GL_SUITES="unit regress tap concurrency lifecycle bench nopreload oldgpu standby shard kernels" CUDA_ARCHS=90 \
	timeout 555 test/gpu/run --part suite --out $OUT/suite 2>&1 | tail -40
