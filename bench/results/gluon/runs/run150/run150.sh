#!/usr/bin/env bash
# Run 150 (session 59): the two kernels whose re-solve with the compare / select typing changes only their header's
# figures (so their device code's hash, which ties a record to the committed kernel, changed): measured again.
set -u
G=bench/results/gluon
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 300 python bench/gluon_gpu.py $G/tk_topk_forward $G/triton_kernels_mxfp4_upcast_gemm \
  --sizes 4096 --timeout 40 --out $OUT/gpu150.json 2>&1 | tee -a $OUT/run150.log | grep -v "^\s*$"
