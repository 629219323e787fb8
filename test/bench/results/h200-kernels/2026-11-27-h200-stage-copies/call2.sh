#!/bin/bash
# Call 2 (H200): main against stage-copies (as in call 1) and stage-lean
# (stage-lean.patch: the same copies kept in five registers, not
# thirteen), kernel_test of each and the whole kernel_bench two rounds
# each in one run; Nsight Compute on stage-lean's AC 200 and rows pass.
# Here first:
#   test/kernels/compare-revs build .carry/s17b main study/stage-copies study/stage-lean
#   tar -cJf .carry/s17b.txz -C .carry s17b
# then run this with carry [".carry/s17b.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tar -xJf .carry/s17b.txz -C /tmp
mkdir -p /tmp/out
OUT=/tmp/out timeout 400 test/kernels/compare-revs run /tmp/s17b | tee /tmp/out/log-tail.txt
sections="--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis
	--section WarpStateStats --section SchedulerStats --section Occupancy"
for class in "AC 200" "rows pass"; do
	f="/tmp/out/ncu-stage-lean-${class// /-}.txt"
	timeout 40 ncu --clock-control none $sections -k regex:stream_kernel -c 1 \
		/tmp/s17b/study-stage-lean/kernel_bench 0.5 "$class" > "$f" 2>&1
	grep -hE "Duration|Throughput|Issue Slots Busy|Achieved Occupancy" "$f" | sed "s/^/$class: /" | head -10
done
cp /tmp/out/log-tail.txt $OUT/
tar -czf $OUT/outputs.tgz -C /tmp out
