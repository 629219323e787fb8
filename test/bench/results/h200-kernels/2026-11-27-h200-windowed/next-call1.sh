#!/bin/bash
# Prepared for the next session's first call (H200), not run yet: main
# against studies/stage-copies.patch, kernel_test of each and the whole
# kernel_bench two rounds; then Nsight Compute on main for the classes
# under or at their targets: the sieve window kernel ('%final%'), the
# stream kernel's windowed table (200 literals), its compact table
# ('%e_e%', 20 literals).  Here first:
#   test/kernels/compare-revs studies .carry/next \
#       test/bench/results/h200-kernels/2026-11-27-h200-windowed/studies/stage-copies.patch
# then run this with carry [".carry"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tar -xJf .carry/next.txz -C /tmp
mkdir -p /tmp/out
OUT=/tmp/out timeout 330 test/kernels/compare-revs run /tmp/next | tee /tmp/out/log-tail.txt
sections="--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis
	--section WarpStateStats --section SchedulerStats --section Occupancy"
for c in "literal short:sieve_window_kernel" "AC 200:stream_kernel" "rows pass:stream_kernel" \
	"AC 20:stream_kernel"; do
	class=${c%%:*}
	timeout 60 ncu --clock-control none $sections -k regex:${c##*:} -c 1 \
		/tmp/next/main/kernel_bench 0.5 "$class" > "/tmp/out/ncu-${class// /-}.txt" 2>&1
	grep -hE "Duration|Throughput|Issue Slots Busy|Shared.*Wavefronts|Bank Conflicts|Achieved Occupancy" \
		"/tmp/out/ncu-${class// /-}.txt" | sed "s/^/$class: /" | head -14
done
cp /tmp/out/log-tail.txt $OUT/
tar -czf $OUT/outputs.tgz -C /tmp out
