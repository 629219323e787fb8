#!/bin/bash
# Call 2 (H200): the session's before and after, the whole bench, two
# rounds each, one run: the session's start (06b7480) with kernel_bench's
# fix alone (the adversarial column's own random stream, a4f9a8f, so both
# benches draw the same literal lists: branch study/start-bench-fix) and
# main at eafbe89.  No kernel_test here: main's ran in call 1 (53bb2dd)
# and again in the suite (call 3).  Built here:
#   test/kernels/compare-revs build .carry/s38 study/start-bench-fix main
#   (request_bench removed), tar -cJf .carry/s38.txz -C .carry s38;
# run with carry [".carry/s38.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name --format=csv,noheader
tmp=$(mktemp -d)
tar -xJf .carry/s38.txz -C "$tmp" || exit 1
cat "$tmp"/s38/*/rev
mkdir -p "$tmp/out"
OUT=$tmp/out timeout 560 test/kernels/compare-revs bench "$tmp/s38" | tee "$OUT/log-tail.txt"
tar -czf "$OUT/outputs.tgz" -C "$tmp" out
