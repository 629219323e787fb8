#!/bin/bash
# call 2: the latency of selective queries at HEAD (SF10 orders, o_comment cached; test/bench/latency,
# three rounds, after a sweep that only loads the data); Nsight Compute of the kernel of every
# kernel_bench class still under its target (0.5 GB column)
set -uo pipefail
nvidia-smi --query-gpu=name --format=csv,noheader | tee $OUT/gpu-name.txt
GL_SWEEP_ARGS="--classes= --configs gpulike --no-whole" timeout 330 test/gpu/run --part sweep \
	--deadline 150 --out /tmp/sw > /tmp/sw.log 2>&1
tail -5 /tmp/sw.log; cp /tmp/sw/latency.txt $OUT/ 2>/dev/null; cat /tmp/sw/latency.txt
mkdir -p /tmp/ncu
for c in "literal short" "rows pass" "AC 20" "AC 200" "ILIKE libc" "multi-segment"; do
	f=/tmp/ncu/ncu-${c// /-}.txt
	timeout 60 ncu --clock-control none --section SpeedOfLight --section Occupancy --section WarpStateStats \
		--section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
		--metrics l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed.sum \
		-k regex:"stream_kernel|sieve_window_kernel|sieve_kernel" -c 1 .carry/cmp/HEAD/kernel_bench 0.5 "$c" > $f 2>&1
	echo "== $c"; grep -hE "stream_kernel|sieve|Duration|DRAM Throughput|Compute \(SM\)|Issue Slots Busy|wavefronts|conflicts|inst_executed|Achieved Occupancy|Warp Cycles Per Issued|Registers Per" $f | head -16
done
tar -C /tmp -czf $OUT/ncu.tgz ncu; tar -C /tmp -czf $OUT/sweep.tgz sw/status.txt sw/sweep.log sw/gpu.txt 2>/dev/null
cp /tmp/sw.log $OUT/
