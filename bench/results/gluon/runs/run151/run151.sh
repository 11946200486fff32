#!/usr/bin/env bash
# Run 151 (session 59): the FA forward with one 8-warp consumer (fa3-one-group), loop run and stall sample, against
# the replay: with no second consumer on the SM sub-partitions, does the replay's whole-SM ALU and MUFU rate hold?
set -u
G=bench/results/gluon
PYTHONPATH=. timeout 200 python -m twill validate kernels/fa3.py --arch h200 --schedule $G/fa3-one-group \
  -o $OUT/validate-fa3-one-group --loops-only --stalls 2>&1 | tee -a $OUT/run151.log | grep -v "^\s*$"
