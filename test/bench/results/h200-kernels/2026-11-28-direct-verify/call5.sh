#!/bin/bash
# Call 5 (H200): verify_probe's DIRECT mode with a leaner check (the
# literal's mask stored beside it, marks addressed from the span) and its
# lanes listed with one ballot: LANES (a lane's candidates checked one
# after another) and REQUEUED (one a round, the rest listed again);
# twice; Nsight Compute's counts for every kernel of one run and the
# source counters of REQUEUED.  Built and carried as call 1.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name --format=csv,noheader
.carry/c9/verify_probe | tee $OUT/verify.txt
.carry/c9/verify_probe | tee $OUT/verify-2.txt
timeout 150 ncu --clock-control none -k regex:probe --metrics \
	l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts.sum,smsp__inst_executed.sum,l1tex__throughput.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum \
	.carry/c9/verify_probe > $OUT/ncu-metrics.txt 2>&1
grep -E "^  void |wavefronts|inst_executed|throughput|issue_active|duration" $OUT/ncu-metrics.txt \
	| awk '/^  void /{n++} n%4==2 && n > 12' | cut -c1-110
timeout 150 ncu --clock-control none -k regex:probe_direct --launch-skip 9 --launch-count 1 \
	--import-source yes --section SourceCounters --section WarpStateStats \
	-o $OUT/requeued .carry/c9/verify_probe > $OUT/ncu-requeued.txt 2>&1
ncu --import $OUT/requeued.ncu-rep --page source --csv --print-source sass \
	> $OUT/source-requeued.csv 2>&1
cd $OUT && tar -czf outputs.tgz --remove-files ncu-*.txt source-*.csv *.ncu-rep
