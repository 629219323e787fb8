#!/bin/bash
# Call 5 (H100): main's kernels (fa68667; as ee40dd1's, the classed tables
# on slices since d8f9d1f) on an H100: kernel_test, the whole bench, two
# rounds.  Built here:
#   test/kernels/compare-revs build .carry/s26c HEAD (then tar -cJf
#   .carry/s26c.txz), run with carry [".carry/s26c.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name --format=csv,noheader
test/kernels/compare-revs carried .carry/s26c.txz
