#!/usr/bin/env bash
# Run 212 (session 83, #14): the FA backward with its Q and dO rings three deep (run212/d1: loads two iterations ahead,
# bench/ring_depth_probe.py's regeneration) and three deep with the producer's share of the dQ adds three iterations
# behind its loads (run212/l1d1), against the committed kernel: correct, then head to head at 4k and 16k.
set -u
OUT=${OUT:-/tmp/run212}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv | tee "$OUT/gpu.txt"
R=bench/results/gluon/runs/run212
for v in d1 l1d1; do
  PYTHONPATH=. timeout 150 python bench/gluon_gpu.py "$R/$v" --sizes 0 --no-baselines --timeout 140 2>&1 | tee "$OUT/check-$v.log"
done
PYTHONPATH=. timeout 330 python bench/gluon_vs.py bench/results/gluon/fa_bwd "$R/d1" "$R/l1d1" --sizes 4096,16384 \
  --rounds 5 --out "$OUT/vs.json" 2>&1 | tee "$OUT/vs.log"
bash bench/results/gluon/runs/device_tree.sh pack "$OUT"
