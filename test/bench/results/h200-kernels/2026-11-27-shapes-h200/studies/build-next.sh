#!/bin/bash
# Build the studies of this directory for one compare-revs call on a GPU
# (the eleventh session's; compare-revs does it now):
#   test/kernels/compare-revs studies .carry/cmp PATCH...
# On the device: tar -xJf .carry/cmp.txz -C /tmp && test/kernels/compare-revs run /tmp/cmp
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(git -C "$here" rev-parse --show-toplevel)
patches=()
for name in ${@:-stride-rows mid-flag stride-mid ac-wide}; do
	patches+=("$here/$name.patch")
done
exec "$root/test/kernels/compare-revs" studies "$root/.carry/cmp" "${patches[@]}"
