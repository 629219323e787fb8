#!/bin/bash
# Call 1 (H200): main (ef8f80e) against the three studies the sixteenth
# session prepared (../2026-11-27-h200-windowed/studies: stage-copies,
# sticky-rows, both), kernel_test of each and the whole kernel_bench two
# rounds each in one run; then Nsight Compute on the classes under or at
# their targets, main's kernels and stage-copies-sticky's for AC 200.
# Here first:
#   R=test/bench/results/h200-kernels/2026-11-27-h200-windowed/studies
#   test/kernels/compare-revs studies .carry/s17a $R/stage-copies.patch \
#       $R/sticky-rows.patch $R/stage-copies-sticky.patch
# then run this with carry [".carry/s17a.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tar -xJf .carry/s17a.txz -C /tmp
mkdir -p /tmp/out
OUT=/tmp/out timeout 360 test/kernels/compare-revs run /tmp/s17a | tee /tmp/out/log-tail.txt
sections="--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis
	--section WarpStateStats --section SchedulerStats --section Occupancy"
for c in "main:literal short:sieve_window_kernel" "main:AC 200:stream_kernel" \
	"study-stage-copies-sticky:AC 200:stream_kernel" "main:rows pass:stream_kernel"; do
	rev=${c%%:*}; rest=${c#*:}; class=${rest%%:*}
	f="/tmp/out/ncu-$rev-${class// /-}.txt"
	timeout 40 ncu --clock-control none $sections -k regex:${rest##*:} -c 1 \
		/tmp/s17a/$rev/kernel_bench 0.5 "$class" > "$f" 2>&1
	grep -hE "Duration|Throughput|Issue Slots Busy|Shared.*Wavefronts|Bank Conflicts|Achieved Occupancy|Registers" \
		"$f" | sed "s/^/$rev $class: /" | head -16
done
cp /tmp/out/log-tail.txt $OUT/
tar -czf $OUT/outputs.tgz -C /tmp out
