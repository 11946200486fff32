#!/usr/bin/env bash
# Run 167 (session 63): Mamba-2's bmm forward and backward with 8 warps (`--num-warps 8`: one 8-warp consumer and the
# producer) beside their committed 4-warp consumers (each timed at launch against its one-partition kernel).
set -u
G=bench/results/gluon; R=$G/runs/run167
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 400 python bench/gluon_gpu.py $R/mamba_bmm_chunk-w8 $G/mamba_bmm_chunk \
  $R/mamba_bmm_chunk_bwd-w8 $G/mamba_bmm_chunk_bwd --sizes 4096 --timeout 60 \
  --out $OUT/gpu167.json 2>&1 | tee $OUT/run167.log | grep -vi "warning"
