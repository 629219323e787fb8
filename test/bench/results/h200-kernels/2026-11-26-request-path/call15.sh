#!/bin/bash
# call 15: the whole suite with gpulike.device = gpu on this tree (kernel tests included)
GL_SUITES="unit regress tap concurrency lifecycle bench nopreload oldgpu standby shard kernels" CUDA_ARCHS=90 \
	timeout 570 test/gpu/run --part suite --out $OUT/suite > $OUT/suite.log 2>&1
tail -25 $OUT/suite.log
tar -C $OUT -czf $OUT/all.tgz suite 2>/dev/null; rm -rf $OUT/suite
