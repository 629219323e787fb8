#!/bin/bash
# Call 3 (H200): where main's stream kernel spends the hit path, per SASS
# instruction (Nsight Compute's source counters: executed instructions and
# warp stall samples), for rows pass and 200 literals.  Carry
# [".carry/s20a.txz"] (call 2's pack: main's kernel_bench).
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
rm -rf /tmp/s20a && tar -xJf .carry/s20a.txz -C /tmp
mkdir -p $OUT/ncu
for class in "rows pass" "AC 200"; do
	f=$OUT/ncu/${class// /-}
	timeout 120 ncu --clock-control none --section SourceCounters --section WarpStateStats \
		--section InstructionStats --section SpeedOfLight -k regex:stream_kernel -c 1 \
		-o $f /tmp/s20a/main/kernel_bench 0.5 "$class" > $f.log 2>&1
	tail -3 $f.log
	timeout 120 ncu --import $f.ncu-rep --page source --csv --print-source sass > $f-sass.csv 2> $f-sass.err
	echo "$class: $(wc -l < $f-sass.csv) SASS lines, $(head -c 300 $f-sass.err)"
	timeout 60 ncu --import $f.ncu-rep --page details > $f-details.txt 2>&1
	grep -E "Duration|Throughput|Issue Slots|Executed Ipc|Warp Cycles|Stall" $f-details.txt | head -20
done
gzip -9 $OUT/ncu/*.csv
ls -la $OUT/ncu
