#!/bin/bash
# Call 7 (H200): the sieves with an L2 prefetch of the warp's span one
# (sieve-prefetch1) or two (sieve-prefetch2) rounds ahead, a 128-byte line
# a lane, against main (34c044d): kernel_test of each, the sieve classes,
# two rounds.  Built here:
#   test/kernels/compare-revs build .carry/s26e main sieve-prefetch1
#   sieve-prefetch2 (then tar -cJf .carry/s26e.txz), carry [".carry/s26e.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name --format=csv,noheader
test/kernels/compare-revs carried .carry/s26e.txz "literal short,literal rare,prefix,literal long,literal pair"
