#!/bin/bash
# Call 5 (H200): "AC 200 rare" in five runs, each after other classes
# in kernel_bench's list, meant to draw its made-up literals five ways
# (it does not: kernel_bench builds every class's program whatever it
# runs, so all five have the same literals); the session's start
# (c018338: listed lanes pointing into the stage) against main (listed
# lanes carrying their text), one run each.  Carry: the s35.txz of call 4.
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name --format=csv,noheader
tmp=$(mktemp -d)
tar -xJf .carry/s35.txz -C "$tmp" s35/c018338/kernel_bench s35/main/kernel_bench || exit 1
i=0
for list in "AC 200 rare" "AC 1,AC 200 rare" "AC 20,AC 200 rare" "AC 200,AC 200 rare" \
	"AC 2,AC 40,AC 200 rare"; do
	i=$((i + 1))
	for rev in c018338 main; do
		timeout 60 "$tmp/s35/$rev/kernel_bench" 2.1 "$list" > $OUT/bench-list$i-$rev.txt 2>&1
		echo "list $i ($list) $rev: $(grep '^AC 200 rare' $OUT/bench-list$i-$rev.txt | head -1 | awk '{print $(NF-3), $NF}')"
	done
done
