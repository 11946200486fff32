#!/usr/bin/env bash
# Run 216 (session 85, #17 and #14): run 215's part (a), which found no machine: the FA backward validated with the
# region-sums profile under its new plan (the D load's region beside clean regions; consumer 1's dpT wait timed by
# difference); then the GEMM validated, its speed table now every contender in 3 rotating rounds (session 84), to
# check that table against run 215's interleaved head to head.
set -u
OUT=${OUT:-/tmp/run216}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > "$OUT/gpu.txt"
PYTHONPATH=. timeout 380 python -m twill validate kernels/fa_bwd.py --arch h200 --schedule bench/results/gluon/fa_bwd \
  --sums auto -o "$OUT/validate-fa_bwd" > "$OUT/validate-fa_bwd.log" 2>&1
PYTHONPATH=. timeout 170 python -m twill validate kernels/gemm.py --arch h200 --schedule bench/results/gluon/gemm \
  -o "$OUT/validate-gemm" > "$OUT/validate-gemm.log" 2>&1
bash bench/results/gluon/runs/device_tree.sh pack "$OUT"
