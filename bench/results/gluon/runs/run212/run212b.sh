#!/usr/bin/env bash
# Run 212b (session 83, #14): the FA backward with consumer 0's sT dot issued before its dpT dot (run212/st0.py): correct,
# then head to head with the committed kernel at 4k (16k's reference inputs do not fit an H100's 80 GB in gluon_vs).
set -u
OUT=${OUT:-/tmp/run212b}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv | tee "$OUT/gpu.txt"
R=bench/results/gluon/runs/run212
PYTHONPATH=. timeout 150 python bench/gluon_gpu.py "$R/st0" --sizes 0 --no-baselines --timeout 140 2>&1 | tee "$OUT/check-st0.log"
PYTHONPATH=. timeout 200 python bench/gluon_vs.py bench/results/gluon/fa_bwd "$R/st0" --sizes 4096 --rounds 7 \
  --out "$OUT/vs-st0.json" 2>&1 | tee "$OUT/vs-st0.log"
