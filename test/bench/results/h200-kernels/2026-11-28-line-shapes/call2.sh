#!/bin/bash
# Call 2 (H200): main (eab6a93) against text-rows (the compact table's
# rows numbered for the banks on the column's sample, compact_for_text.cu,
# and shape {1024, 3}) and text-lines (the same on line-shapes):
# kernel_test of each, the whole bench, two rounds; then Nsight Compute's
# shared-memory wavefronts and shared loads of rows pass, main and
# text-rows.  Built here:
#   test/kernels/compare-revs build .carry/s25a main text-rows text-lines
#   (then tar -cJf .carry/s25a.txz), run with carry [".carry/s25a.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
test/kernels/compare-revs carried .carry/s25a.txz
tmp=$(mktemp -d)
tar -xJf .carry/s25a.txz -C $tmp
for rev in main text-rows; do
	timeout 60 ncu --clock-control none -k regex:stream_kernel -c 1 --metrics \
		l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed_op_shared_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,smsp__warps_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum \
		$tmp/s25a/$rev/kernel_bench 0.5 "rows pass" > $OUT/ncu-$rev-rows-pass.txt 2>&1
	grep -E "stream_kernel|wavefronts|inst_executed|conflicts|warps_active|duration" $OUT/ncu-$rev-rows-pass.txt
done
