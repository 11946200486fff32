#!/usr/bin/env bash
# Run 190 (session 71): the six kernels of session 71's sweep that get a Gluon kernel, their first GPU run: checked
# (NaN-poisoned outputs, two seeds; a failure says whether Triton's own kernel fails too) and timed against Triton's
# default at PROBLEM. One device call; the record is written after each kernel.
set -u
G=bench/results/gluon
export TRITON_CACHE_DIR=$(mktemp -d)
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 420 python bench/gluon_gpu.py $G/dsv32_fp8_indexer_logits \
  $G/vllm_layernorm_gated_looped $G/moba_topk_block_attention $G/nvfp4_w4a16_gemm $G/fbgemm_fp8_row_splitk \
  $G/bnb_nf4_double_quant_gemm --sizes 4096 --timeout 90 --out $OUT/gpu190.json 2>&1 | tee $OUT/run190.log \
  | grep -vi warning
