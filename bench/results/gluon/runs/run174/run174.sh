#!/usr/bin/env bash
# Run 174 (session 64): run 173's finding on a second dequantising GEMM: w4a16_gemm (x0.81 of Triton's default) committed
# (one 8-warp consumer) against its row split in two 4-warp consumers (--row-split 2; the model 1022 against 939).
set -u
G=bench/results/gluon; R=$G/runs/run174
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 300 python bench/gluon_gpu.py $G/w4a16_gemm $R/w4a16_gemm-split2 --sizes 4096 \
  --timeout 60 --out $OUT/gpu174.json 2>&1 | tee $OUT/run174.log | grep -vi "warning"
