#!/usr/bin/env bash
# Run 175 (session 64): vllm_scaled_mm as the integer pipes' costs re-solve it (its rings 3 deep, 2 ahead) against the
# committed kernel (4 deep, 3 ahead; run 66: 1 ahead 671 TOP/s, 3 ahead 1209).
set -u
G=bench/results/gluon; R=$G/runs/run175
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 240 python bench/gluon_gpu.py $G/vllm_scaled_mm $R/vllm_scaled_mm-new --sizes 4096 \
  --timeout 60 --out $OUT/gpu175.json 2>&1 | tee $OUT/run175.log | grep -vi "warning"
