#!/usr/bin/env bash
# Run 170 (session 64): the op kinds run 168 did not time (op_probe2.py; the SASS each compiles to, offline:
# sass_counts.json, 8 warps), for the integer-aware ALU cost table.
set -u
PYTHONPATH=. timeout 200 python bench/results/gluon/runs/run170/op_probe2.py $OUT/op170.json 2>&1 | tee $OUT/op170.log \
  | grep -vi warning
