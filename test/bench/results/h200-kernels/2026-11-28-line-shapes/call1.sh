#!/bin/bash
# Call 1 (H200): main (86ebe61) against line-shapes (8fca931) and
# line-ahead (99e3a64), the twenty-first session's pack: kernel_test of
# each, the whole bench, two rounds.  Built there:
#   test/kernels/compare-revs build .carry/s24a 86ebe61 line-shapes line-ahead
#   (then tar -cJf .carry/s24a.txz), run with carry [".carry/s24a.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
test/kernels/compare-revs carried .carry/s24a.txz
