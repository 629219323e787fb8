#!/bin/bash
# Call 3: request_bench of 4b18351 (the sieve's entry in the hit path,
# launch sizes still asked at every launch) and main (launch sizes kept,
# the windowed tables), two rounds; the SASS of the sieve window kernels
# (cuobjdump); then the whole suite with gpulike.device = gpu on main
# (the kernel tests included).
set -uo pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu-name.txt
tar -xJf .carry/st3.txz -C /tmp
for rev in 4b18351 main 4b18351 main; do
	echo "== request_bench $rev"
	timeout 60 /tmp/st3/$rev/request_bench 15000000 200
done 2>&1 | tee $OUT/request_bench.txt
cuobjdump -sass /tmp/st3/main/kernel_bench |
	awk '/Function : /{p = /sieve_window_kernel/} p' | gzip -9 > $OUT/window-kernel-sass.txt.gz
GL_SUITES="unit regress tap concurrency lifecycle bench nopreload oldgpu standby shard kernels" CUDA_ARCHS=90 \
	timeout 440 test/gpu/run --part suite --out /tmp/suite > $OUT/suite.log 2>&1
echo "rc=$?"; tail -16 $OUT/suite.log
grep -rh "^not ok" /tmp/suite 2>/dev/null | head
