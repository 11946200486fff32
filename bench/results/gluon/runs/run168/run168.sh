#!/usr/bin/env bash
# Run 168 (session 63): one ALU op of each kind, 32 dependent a step an element, a [128, 64] tile, one CTA an SM, at 4
# and 8 warps (op_probe.py; the SASS each compiles to, offline: sass_counts.json).
set -u
PYTHONPATH=. timeout 200 python bench/results/gluon/runs/run168/op_probe.py $OUT/op168.json 2>&1 | tee $OUT/op168.log \
  | grep -vi warning
