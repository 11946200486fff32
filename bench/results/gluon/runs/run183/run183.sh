#!/usr/bin/env bash
# Run 183 (session 68): the block-pointer GEMM solved with --extra-stages 1 (I=304 L=391 in two stages, 2487 cycles
# predicted) beside its committed kernel (I=390 in one stage, 3204), with Triton's default. One device call.
set -u
G=bench/results/gluon; R=$G/runs/run183
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 400 python bench/gluon_gpu.py $G/block_ptr_gemm $R/block_ptr_gemm-es1 \
  --sizes 4096 --timeout 45 --out $OUT/gpu183.json 2>&1 | tee $OUT/run183.log | grep -vi "warning"
