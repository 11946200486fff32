#!/usr/bin/env bash
# Run 213 (session 83, #14): the FA backward's dQ partials added by TMA reduce-add (run213/tmared.py), not by the
# one-warp reducer's and producer's atomics: unswizzled [64, 64] boxes (tmared) and 128-byte-swizzled [64, 32] boxes,
# two a partial (tmared_sw). Correct, then head to head with the committed kernel at 1k and 4k.
set -u
OUT=${OUT:-/tmp/run213}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv | tee "$OUT/gpu.txt"
R=bench/results/gluon/runs/run213
for v in tmared tmared_sw; do
  PYTHONPATH=. timeout 150 python bench/gluon_gpu.py "$R/$v" --sizes 0 --no-baselines --timeout 140 2>&1 | tee "$OUT/check-$v.log"
done
PYTHONPATH=. timeout 280 python bench/gluon_vs.py bench/results/gluon/fa_bwd "$R/tmared" "$R/tmared_sw" --sizes 1024,4096 \
  --rounds 7 --out "$OUT/vs.json" 2>&1 | tee "$OUT/vs.log"
