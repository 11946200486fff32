#!/usr/bin/env bash
# Run 173 (session 64): the w8a8 block int8 GEMM (x0.87 of Triton's default in run 172) committed against its row split
# in two 4-warp consumers (--row-split 2, runs/run173/...-split2), which the model puts 1.9x slower (2607 against 1389).
set -u
G=bench/results/gluon; R=$G/runs/run173
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 300 python bench/gluon_gpu.py $G/sglang_w8a8_block_int8_gemm \
  $R/sglang_w8a8_block_int8_gemm-split2 --sizes 4096 --timeout 60 --out $OUT/gpu173.json 2>&1 | tee $OUT/run173.log \
  | grep -vi "warning"
PYTHONPATH=. timeout 150 python -m twill validate tests/corpus/sglang_w8a8_block_int8_gemm.py --arch h200 \
  --schedule $G/sglang_w8a8_block_int8_gemm -o $OUT/validate-int8 --loops-only 2>&1 | tee $OUT/run173-loop.log \
  | grep -E "per iteration|loop run|PASS|FAIL|error|TFLOP" | head -8
