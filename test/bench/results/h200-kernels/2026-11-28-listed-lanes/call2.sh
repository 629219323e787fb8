#!/bin/bash
# Call 2 (H200): main (the set sieve's listed lanes kept) against three
# studies (studies/): set-14-warps (the set sieve in blocks of 14 warps,
# as a device whose block holds 99 kB of shared memory runs it: sm_86,
# sm_89), sieve-ldcs (the sieve's text loaded evict-first) and
# window-lean (the window kernel's hits set without the row bound):
# kernel_test of each, then the sieve's classes and "AC 200 rare", two
# rounds; then Nsight Compute's source counters of the window kernel on
# '%final%' (0.5 GB), main.  Built here:
#   test/kernels/compare-revs studies .carry/s33 studies/set-14-warps.patch \
#     studies/sieve-ldcs.patch studies/window-lean.patch
#   (then delete the branches study/*);
# run with carry [".carry/s33.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 420 test/kernels/compare-revs carried .carry/s33.txz \
	"literal short,literal rare,literal long,prefix,literal pair,AC 200 rare"
tmp=$(mktemp -d)
tar -xJf .carry/s33.txz -C "$tmp" s33/main/kernel_bench || exit 1
timeout 90 ncu --clock-control none -k regex:sieve_window -c 1 --import-source yes \
	--section SourceCounters --section WarpStateStats --section SpeedOfLight \
	--section ComputeWorkloadAnalysis --section Occupancy -o $OUT/final \
	"$tmp/s33/main/kernel_bench" 0.5 "literal short" > $OUT/ncu-final.txt 2>&1
ncu --import $OUT/final.ncu-rep --page source --csv --print-source sass \
	> $OUT/source-final.csv 2>&1
grep -E "Throughput|Busy|Issue|Pipe|Occupancy|Registers" $OUT/ncu-final.txt | head -20
cd $OUT && tar -czf ncu.tgz --remove-files ncu-*.txt source-*.csv *.ncu-rep
