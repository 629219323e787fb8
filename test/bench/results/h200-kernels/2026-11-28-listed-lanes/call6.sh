#!/bin/bash
# Call 6 (H200; run first in the next session, 2026-11-28: call6-h200/):
# ac-windowed-printable (studies/), the form of call 4's ac-windowed to
# keep: an Aho-Corasick automaton past the compact table takes its
# windowed table where its literals keep to printable ASCII, else the
# wide one as before (the classed form lost to it), with kernel_test's
# plan checks and set-sieve cases made to see both; kernel_test of main
# and the study, then the Aho-Corasick classes and the wide DFA, two
# rounds.  Built here:
#   test/kernels/compare-revs studies .carry/s36 studies/ac-windowed-printable.patch
#   (then delete the branch study/ac-windowed-printable);
# run with carry [".carry/s36.txz"].  Keep it if kernel_test passes and
# "AC 40" gains as in call 4 (44.0-44.4 -> 45.8-46.6).
set -o pipefail
cd "$(dirname "$0")/../../../../.."
nvidia-smi --query-gpu=name --format=csv,noheader
timeout 500 test/kernels/compare-revs carried .carry/s36.txz \
	"AC 2,AC 20,AC 40,AC 200,AC 200 letters,AC 200 rare,DFA wide"
