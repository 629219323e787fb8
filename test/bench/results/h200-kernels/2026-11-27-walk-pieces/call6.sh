#!/bin/bash
# Call 6 (H100): the whole kernel_bench, the session's start (7394ab7)
# against its end (main, 9c683c5: the root's twin), kernel_test of both,
# two rounds; the same pack as call 4 (sm_90 serves both cards).  Run
# with carry [".carry/s23b.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
timeout 540 test/kernels/compare-revs carried .carry/s23b.txz
