#!/bin/bash
# Call 2 (H200): the window sieve, main (ee40dd1) against sieve-occ (the
# window kernels at 8 blocks an SM: 32 registers), sieve-entry (the chunk
# index entry loaded before the window's other bytes are tested) and
# sieve-both: kernel_test of each, the sieve classes, two rounds; then
# the warps active of '%final%', main and sieve-both.  Built here:
#   test/kernels/compare-revs build .carry/s26b main sieve-occ sieve-entry
#   sieve-both (then tar -cJf .carry/s26b.txz), carry [".carry/s26b.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
test/kernels/compare-revs carried .carry/s26b.txz "literal short,literal rare,prefix,literal long,literal pair"
tmp=$(mktemp -d)
tar -xJf .carry/s26b.txz -C $tmp
for rev in main sieve-both; do
	timeout 60 ncu --clock-control none -k regex:sieve_window -c 1 --metrics \
		sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__pcsamp_warps_issue_stalled_long_scoreboard,gpu__time_duration.sum \
		$tmp/s26b/$rev/kernel_bench 0.5 "literal short" > $OUT/ncu-$rev-final.txt 2>&1
	grep -E "sieve_window|warps_active|dram__|duration" $OUT/ncu-$rev-final.txt
done
