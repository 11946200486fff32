#!/usr/bin/env bash
# Run 52 on the GPU machine (session 37): bias_attention with each consumer's half of the bias tile copied by cp.async
# and read in the accumulator's layout, against the kernel of run 51 (runs/run52/before/), which held it a stage in
# registers and converted it every iteration; then its GPU test.
set -u
G=bench/results/gluon
PYTHONPATH=. timeout 100 python bench/gluon_gpu.py $G/runs/run52/before/bias_attention $G/bias_attention \
  --out $OUT/gpu52-bias_attention.json 2>&1 | tail -3 | tee -a $OUT/run52.log
PYTHONPATH=. timeout 60 python -m pytest -q tests/gpu/test_gpu_gluon.py -k bias_attention 2>&1 | tail -2 \
  | tee -a $OUT/run52.log
