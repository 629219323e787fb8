#!/bin/bash
# Call 3: main (b8ada21) against three studies of the slices a warp keeps
# in flight (studies/): three-buffers (call 2's winner), three-buffers-1024
# (a 1024-thread shape of three buffers too, for tables of up to ~35 kB),
# three-buffers-ahead (that, with the copies running on across chunks: the
# last two slices' steps start the next chunk's first two, so a chunk no
# longer begins waiting for its first slice).  kernel_test of each, the
# stream classes two rounds each in one run, Nsight Compute's warp states
# on rows pass for main and the last.  Outputs packed in outputs.tgz.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tar -xJf .carry/cmp.txz -C /tmp
mkdir -p /tmp/out
OUT=/tmp/out timeout 420 test/kernels/compare-revs run /tmp/cmp "multi-segment,underscore,ILIKE,ILIKE libc,rows pass,AC 1,AC 2,AC 20,AC 40,DFA,DFA wide,DFA sieved" | tee $OUT/log-tail.txt
for rev in main study-three-buffers-ahead; do
	f=/tmp/out/ncu-$rev-rows-pass.txt
	timeout 45 ncu --clock-control none --section SpeedOfLight --section Occupancy --section WarpStateStats \
		--section SchedulerStats --section LaunchStats \
		--metrics l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed.sum \
		-k regex:"stream_kernel" -c 1 /tmp/cmp/$rev/kernel_bench 0.5 "rows pass" > $f 2>&1
	echo "== $rev rows pass"; grep -hE "\(.*\)x\(|Duration|DRAM Throughput|Registers Per|Achieved Occupancy|wavefronts|inst_executed|Warp Cycles Per Issued|cycles being stalled" $f | cut -c1-150 | head -16
done | tee -a $OUT/log-tail.txt
tar -czf $OUT/outputs.tgz -C /tmp out
