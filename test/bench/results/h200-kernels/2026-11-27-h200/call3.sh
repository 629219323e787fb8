#!/bin/bash
# call 3: HEAD against new (a compact table takes a one-buffer stage where that lets an SM hold
# more blocks; the sieve's window without masks for case-sensitive LIKE) and v2 (new, and
# Aho-Corasick past 64 states on the classed table, two buffers where they cost no block: a study)
# kernel_test of each; the whole kernel_bench, two rounds; Nsight of new's AC 20 and literal short
set -uo pipefail
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu-name.txt
test/kernels/compare-revs run .carry/cmp
grep "^not ok" $OUT/kernel_test-*.txt | head
mkdir -p /tmp/ncu
for c in "AC 20" "literal short"; do
	f=/tmp/ncu/ncu-new-${c// /-}.txt
	timeout 60 ncu --clock-control none --section SpeedOfLight --section Occupancy --section WarpStateStats \
		--metrics l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed.sum \
		-k regex:"stream_kernel|sieve_window_kernel|sieve_kernel" -c 1 .carry/cmp/new/kernel_bench 0.5 "$c" > $f 2>&1
	echo "== $c"; grep -hE "stream_kernel|sieve|Duration|DRAM Throughput|Issue Slots Busy|wavefronts|conflicts|inst_executed|Achieved Occupancy" $f | head -12
done
tar -C /tmp -czf $OUT/ncu.tgz ncu
