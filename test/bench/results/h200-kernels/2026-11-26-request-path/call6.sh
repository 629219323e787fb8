#!/bin/bash
# call 6: the classed stream, byte by one permute (va), and with a one-buffer stage (vb), against the skim
nvidia-smi --query-gpu=name --format=csv,noheader
.carry/cmp/va/kernel_test > $OUT/kernel_test-va.txt 2>&1; tail -1 $OUT/kernel_test-va.txt
for r in 1 2; do for v in skim va vb; do
	for c in "AC 200" "AC 20" "literal short"; do .carry/cmp/$v/kernel_bench 2.1 "$c" | grep -E "^(AC|literal)" | sed "s/^/$v.$r /"; done
done; done
