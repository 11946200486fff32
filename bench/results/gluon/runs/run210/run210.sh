#!/usr/bin/env bash
# Run 210 (session 82, #14): the FA backward with its dQ reduction buffer doubled by hand (run210/red2.py: two slots of
# twill_red, 232208 bytes of shared memory offline, of 232448) against the committed one: correct, then head to head.
set -u
OUT=${OUT:-/tmp/run210}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv | tee "$OUT/gpu.txt"
R=bench/results/gluon/runs/run210/red2
PYTHONPATH=. timeout 200 python bench/gluon_gpu.py "$R" --sizes 0 --no-baselines --timeout 180 2>&1 | tee "$OUT/check.log"
PYTHONPATH=. timeout 240 python bench/gluon_vs.py bench/results/gluon/fa_bwd "$R" --sizes 4096 --rounds 5 \
  --out "$OUT/vs.json" 2>&1 | tee "$OUT/vs.log"
