#!/bin/bash
# Call 3: main (2ff764e; the stream kernel as in call 1) against the two
# prepared studies of the three-buffer chunk loop unrolled
# (h100-kernels/2026-11-27-three-buffers/studies/ahead-unrolled.patch,
# unrolled-only.patch), the stream kernel's classes two rounds each in one
# run, kernel_test of each; then Nsight Compute on main's rows pass and
# AC 20 (the H200 gave three buffers nothing for rows pass).
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tar -xJf .carry/st.txz -C /tmp
mkdir -p /tmp/out
OUT=/tmp/out timeout 330 test/kernels/compare-revs run /tmp/st \
	"multi-segment,ILIKE libc,rows pass,AC 2,AC 20,AC 200,DFA wide" | tee /tmp/out/log-tail.txt
for c in "rows pass" "AC 20"; do
	f=/tmp/out/ncu-main-${c// /-}.txt
	timeout 60 ncu --clock-control none --section SpeedOfLight --section Occupancy --section WarpStateStats \
		--section LaunchStats --section MemoryWorkloadAnalysis \
		--metrics l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed.sum \
		-k regex:"stream_kernel" -c 1 /tmp/st/main/kernel_bench 0.5 "$c" > $f 2>&1
	echo "== main $c"; grep -hE "\(.*\)x\(|Duration|DRAM Throughput|Registers Per|Achieved Occupancy|Theoretical Occupancy|wavefronts|conflicts|inst_executed|Warp Cycles Per Issued|cycles being stalled" $f | cut -c1-150 | head -16
done | tee -a /tmp/out/log-tail.txt
cp /tmp/out/log-tail.txt $OUT/
tar -czf $OUT/outputs.tgz -C /tmp out
