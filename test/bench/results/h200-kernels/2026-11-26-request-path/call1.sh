#!/bin/bash
# call 1: where a selective request's time goes around its kernels (main; instrumented copy)
nvidia-smi --query-gpu=name --format=csv,noheader
command -v nsys || true
for b in main instr main; do
	echo "== $b"
	.carry/rb/request_bench.$b 15000000 200 2>&1
done
