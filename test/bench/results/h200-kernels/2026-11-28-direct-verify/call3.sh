#!/bin/bash
# Call 3 (H200): verify_probe's DIRECT mode with its literals packed (a
# bucket holds a lone literal's entry itself; a literal one 16-byte word,
# its mask from its length; the stage read with three 8-byte loads and the
# key with one word's), twice; then Nsight Compute on the filter alone
# and on the marking DIRECT kernel.  Built and carried as call 1.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name --format=csv,noheader
.carry/c9/verify_probe | tee $OUT/verify.txt
.carry/c9/verify_probe | tee $OUT/verify-2.txt
for k in 'probe<0>' 'probe_direct<true>'; do
	timeout 120 ncu --clock-control none --kernel-name-base demangled -k "regex:^$k" \
		--launch-skip 1 --launch-count 1 \
		--section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats \
		--section InstructionStats --section MemoryWorkloadAnalysis \
		.carry/c9/verify_probe > "$OUT/ncu-${k//[<>]/_}.txt" 2>&1
	echo "== $k"
	grep -E "Throughput|Pipe|Issue|Executed Ipc|Issued Instructions  " "$OUT/ncu-${k//[<>]/_}.txt" | head -14
done
