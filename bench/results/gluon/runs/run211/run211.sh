#!/usr/bin/env bash
# Run 211 (session 82, #17): `twill validate --sums auto` on the FA forward with the default clock read (%clock, which
# run 209 found the cheaper for single regions): every run over x1.05 measured again in halves; validation.json with
# the calibrated replay per partition (new this session).
set -u
OUT=${OUT:-/tmp/run211}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv | tee "$OUT/gpu.txt"
PYTHONPATH=. timeout 210 python -m twill validate kernels/fa3.py --arch h200 --schedule bench/results/gluon/fa3 \
  --sums auto -o "$OUT/validate-fa3" 2>&1 | tee "$OUT/validate-fa3.log"
