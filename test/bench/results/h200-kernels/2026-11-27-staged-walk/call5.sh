#!/bin/bash
# Call 5 (H200): the session's start (89642f3) against its end (main at
# 45bc5ae: the open row's walk from the staged slice), the whole
# kernel_bench, two rounds each.  Built here:
#   test/kernels/compare-revs build .carry/s21e 89642f3 main
#   tar -cJf .carry/s21e.txz -C .carry s21e
# run with carry [".carry/s21e.txz"].
cd "$(dirname "$0")/../../../../.."
timeout 560 test/kernels/compare-revs carried .carry/s21e.txz
