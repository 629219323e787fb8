#!/bin/bash
# Call 2 (H200): verify_probe's DIRECT mode listing lanes with one ballot
# (not positions with a scan), the stage read a window at once, and a
# variant that counts what it finds instead of marking it (the atomics'
# cost); twice, then under Nsight Compute (the marking kernel).  Built
# and carried as call 1.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name --format=csv,noheader
.carry/c9/verify_probe | tee $OUT/verify.txt
.carry/c9/verify_probe | tee $OUT/verify-2.txt
timeout 150 ncu --clock-control none -k regex:probe_direct --launch-skip 1 --launch-count 1 \
	--section SpeedOfLight --section ComputeWorkloadAnalysis --section WarpStateStats \
	--section InstructionStats --section MemoryWorkloadAnalysis \
	.carry/c9/verify_probe > $OUT/ncu-direct.txt 2>&1
grep -E "Throughput|Pipe|Issue|Lsu|Mio|Stall|Executed Ipc|Bank" $OUT/ncu-direct.txt | head -40
