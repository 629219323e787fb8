#!/bin/bash
# Call 2: last session's main (80112ad) against this session's (main:
# the sieve's chunk index entry in the hit path, folded tables on demand,
# launch sizes kept) and studies/window.patch (the classed table's
# letters' and printable windows, no class load; on main), kernel_test of
# each, then the whole kernel_bench (adversarial text included) two
# rounds each in one run; then request_bench of 80112ad and main (the
# cost around a selective request's kernels, where the launch sizes were
# asked at every launch).
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
tar -xJf .carry/st2.txz -C /tmp
mkdir -p /tmp/out
OUT=/tmp/out timeout 420 test/kernels/compare-revs run /tmp/st2 | tee /tmp/out/log-tail.txt
for rev in 80112ad main 80112ad main; do
	echo "== request_bench $rev"
	timeout 60 /tmp/st2/$rev/request_bench 15000000 200
done 2>&1 | tee /tmp/out/request_bench.txt
cp /tmp/out/log-tail.txt /tmp/out/request_bench.txt $OUT/
tar -czf $OUT/outputs.tgz -C /tmp out
