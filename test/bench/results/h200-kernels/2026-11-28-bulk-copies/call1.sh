#!/bin/bash
# Call 1 (H200): bulk_probe (TMA bulk copies against cp.async for the
# stage, with and without table loads) alone and under Nsight Compute;
# then Nsight Compute's source counters and warp states of main's
# '%final%' (the window sieve) and 200 literals (the stream kernel,
# windowed table).  Built here:
#   nvcc -O3 -std=c++17 -arch=sm_90 -lineinfo bulk_probe.cu -o .carry/probe/bulk_probe
#   test/kernels/compare-revs build .carry/s26a HEAD (kernel_bench kept)
# run with carry [".carry/probe", ".carry/s26a"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name --format=csv,noheader
.carry/probe/bulk_probe | tee $OUT/probe.txt
timeout 120 ncu --clock-control none --metrics \
	l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,l1tex__lsu_writeback_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,gpu__time_duration.sum \
	.carry/probe/bulk_probe > $OUT/ncu-probe.txt 2>&1
grep -E "probe<|wavefronts|pipe_lsu|writeback|inst_executed.sum|duration" $OUT/ncu-probe.txt
bench=.carry/s26a/HEAD/kernel_bench
for c in "literal short:sieve_window" "AC 200:stream_kernel"; do
	class=${c%%:*} kernel=${c##*:} name=${class// /-}
	timeout 150 ncu --clock-control none -k regex:$kernel -c 1 --import-source yes \
		--section SourceCounters --section WarpStateStats --section ComputeWorkloadAnalysis \
		--section SpeedOfLight --section MemoryWorkloadAnalysis_Tables \
		-o $OUT/$name $bench 0.5 "$class" > $OUT/ncu-$name.txt 2>&1
	ncu --import $OUT/$name.ncu-rep --print-details all >> $OUT/ncu-$name.txt 2>&1
	ncu --import $OUT/$name.ncu-rep --page source --csv --print-source sass \
		> $OUT/source-$name.csv 2>&1
	grep -E "Throughput|Busy|Stall|Issue|Pipe|Wavefront|Bank" $OUT/ncu-$name.txt | head -60
done
cd $OUT && tar -czf outputs.tgz --remove-files ncu-*.txt source-*.csv *.ncu-rep probe.txt
