#!/usr/bin/env bash
# Run 193 (session 72): run 192's wrong kernel (the RMSNorm GEMM, its ring base fixed) and its three harness defects
# (the sliding-window attention's reference, the CSR SpMM's inputs and reference, the masked fp8 GEMM's launch) again.
set -u
G=bench/results/gluon
export TRITON_CACHE_DIR=$(mktemp -d)
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 560 python bench/gluon_gpu.py $G/rmsnorm_prologue_gemm \
  $G/sliding_window_attention $G/csr_spmm_rows $G/deepgemm_masked_grouped_fp8 --sizes 4096 --timeout 200 \
  --out $OUT/gpu193.json 2>&1 | tee $OUT/run193.log | grep -vi warning
