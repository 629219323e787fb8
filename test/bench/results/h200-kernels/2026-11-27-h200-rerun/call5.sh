#!/bin/bash
# Call 5: main (7563139), the classes still under their targets on the
# H200: Nsight Compute with every stall reason per issued instruction,
# for rows pass and AC 200 (stream kernel) and '%final%' (sieve); then
# kernel_bench at 0.5 and 8 GB beside call 4's 2.1 GB, to see how much of
# the 2.1 GB figures a fixed cost takes.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tar -xJf .carry/st2.txz -C /tmp
mkdir -p /tmp/out
B=/tmp/st2/main/kernel_bench
for c in "rows pass:stream_kernel" "AC 200:stream_kernel" "literal short:sieve_kernel"; do
	cls=${c%%:*}; k=${c##*:}
	f=/tmp/out/ncu-${cls// /-}.txt
	timeout 90 ncu --clock-control none --section SpeedOfLight --section WarpStateStats --section LaunchStats \
		--section Occupancy --section MemoryWorkloadAnalysis --section InstructionStats --section SourceCounters \
		--metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active.ratio,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed.sum,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active \
		-k regex:"$k" -c 1 $B 0.5 "$cls" > $f 2>&1
	echo "== $cls ($k)"; grep -E "Duration|DRAM Throughput|Warp Cycles Per Issued|issue_stalled.*ratio +[0-9.]+|wavefronts|conflicts|inst_executed.sum|pipe_alu|pipe_lsu" $f |
		awk '{v=$NF; if ($0 ~ /issue_stalled/ && v+0 < 0.3) next; print}' | cut -c1-130
done | tee /tmp/out/log-tail.txt
for gb in 0.5 8; do
	echo "== $gb GB" | tee -a /tmp/out/log-tail.txt
	timeout 150 $B $gb "multi-segment,rows pass,AC 20,AC 200,DFA wide" > /tmp/out/bench-$gb.txt 2>&1
	grep -vE "^ok|^#  " /tmp/out/bench-$gb.txt | grep -v adversarial | tail -8 | tee -a /tmp/out/log-tail.txt
done
cp /tmp/out/log-tail.txt $OUT/
tar -czf $OUT/outputs.tgz -C /tmp out
