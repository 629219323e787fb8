#!/bin/bash
# Call 6 (H200): main (ebc05aa) against classed-eight (the classed tables
# step eight chunks a thread, as the wide table, instead of four: the row
# open at a group's end is followed half as often): kernel_test of each,
# the whole bench, two rounds.  Built here:
#   test/kernels/compare-revs build .carry/s26d main classed-eight (then
#   tar -cJf .carry/s26d.txz), run with carry [".carry/s26d.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name --format=csv,noheader
test/kernels/compare-revs carried .carry/s26d.txz
