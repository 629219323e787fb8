#!/bin/bash
# Build the studies of this directory for one compare-revs call on a GPU:
# each patch applied to the current main in a branch study/<name>, then
#   test/kernels/compare-revs build .carry/cmp main study/<name>...
# and packed (.carry/cmp.txz) to stay under the carry's 64 MiB.  On the
# device: tar -xJf .carry/cmp.txz -C /tmp && test/kernels/compare-revs run /tmp/cmp
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(git -C "$here" rev-parse --show-toplevel)
cd "$root"
revs=(main)
for name in "${@:-two-streams two-streams-1024 two-streams-stride stride-rows}"; do
	for n in $name; do
		wt=$(mktemp -d)
		git worktree add -q -b "study/$n" "$wt" main
		git -C "$wt" apply "$here/$n.patch"
		git -C "$wt" commit -qam "study: $n ($here/$n.patch)"
		git worktree remove --force "$wt"
		revs+=("study/$n")
	done
done
rm -rf .carry/cmp .carry/cmp.txz
test/kernels/compare-revs build .carry/cmp "${revs[@]}"
tar -cJf .carry/cmp.txz -C .carry cmp && rm -rf .carry/cmp
ls -la .carry/cmp.txz
