#!/bin/bash
# call 7: the classed stream (va), with a one-buffer stage (vb), and in 512-thread blocks (vc), against
# the skim for AC 200; the stream kernel's other classes under vb and vc against va
nvidia-smi --query-gpu=name --format=csv,noheader
for v in vb vc; do .carry/cmp/$v/kernel_test > $OUT/kernel_test-$v.txt 2>&1; echo "$v $(tail -1 $OUT/kernel_test-$v.txt)"; done
C="AC 200,AC 20,AC 2,multi-segment,underscore,ILIKE,rows pass,DFA,DFA sieved"
for r in 1 2; do for v in skim va vb vc; do
	if [ $v = skim ]; then .carry/cmp/$v/kernel_bench 2.1 "AC 200"; else .carry/cmp/$v/kernel_bench 2.1 "$C"; fi |
		grep -E "%$" | sed "s/^/$v.$r /"
done; done
