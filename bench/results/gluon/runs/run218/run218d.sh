#!/usr/bin/env bash
# Run 218 (d) (session 86, #17): (c)'s region sets again with the loop unrolled by K (profiling/unroll.py), then the
# Triton route's GPU validate tests.
set -u
OUT=${OUT:-/tmp/run218d}
mkdir -p "$OUT"
NO_PACK=1 OUT="$OUT/c" bash bench/results/gluon/runs/run218/run218c.sh
PYTHONPATH=. timeout 300 python -m pytest -q tests/gpu/test_gpu_validate.py -k committed_schedule -s \
  > "$OUT/gpu-test-validate.log" 2>&1
bash bench/results/gluon/runs/device_tree.sh pack "$OUT"
