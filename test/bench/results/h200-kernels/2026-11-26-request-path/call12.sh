#!/bin/bash
# call 12 (study): what hit resolution costs the stream kernel: base; x1 no resolution at all;
# x2 one-row words set, no listing; x3 no open row followed (answers wrong in x1-x3: timing only)
nvidia-smi --query-gpu=name --format=csv,noheader
for r in 1 2; do for v in base x1 x2 x3; do
	.carry/cmp/$v/kernel_bench 2.1 "rows pass,AC 20,AC 200,multi-segment" | grep -E "%|MISMATCH" | grep -v "^#" | sed "s/^/$v.$r /" | cut -c1-140
done; done
