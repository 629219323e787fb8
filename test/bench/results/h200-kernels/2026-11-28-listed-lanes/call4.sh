#!/bin/bash
# Call 4 (H200): the session's start (c018338) against main (the set
# sieve's listed lanes, the window sieve's span entries, kernel_test in
# six files) and study ac-windowed (an Aho-Corasick automaton past the
# compact table on the windowed or classed table instead of the wide
# one: "AC 40"): kernel_test of each, the whole kernel_bench, two rounds.
# Built here:
#   test/kernels/compare-revs studies .carry/s35 studies/ac-windowed.patch
#   test/kernels/compare-revs build /tmp/s35x c018338, its c018338/ put
#   into s35.txz beside the others (request_bench removed);
# run with carry [".carry/s35.txz"].
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 560 test/kernels/compare-revs carried .carry/s35.txz
