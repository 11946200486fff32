#!/usr/bin/env bash
# Run 121 on the GPU machine (session 52): the cp.async condition without the arguments a copy's mask only reads along
# the rows (codegen/gluon/plan.py `_varying`). vLLM's MoE and its two relatives first (their padded token count EM is not
# 16-divisible at their PROBLEMs, so every copy had gone through registers), against Triton's configs; then kernels
# whose COPY_ALIGNED lost an argument, checked at their small non-divisible problems and timed.
set -u
G=bench/results/gluon
PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $G/vllm_fused_moe $G/fused_moe_decode $G/sglang_fused_moe_fp8 \
  --timeout 90 --out $OUT/gpu121-a.json 2>&1 | tee -a $OUT/run121.log
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 330 python bench/gluon_gpu.py $G/conv_implicit_gemm $G/awq_gemm \
  $G/unsloth_moe_grouped_gemm $G/sage_attention $G/varlen_attention $G/mamba_bmm_chunk $G/lightllm_context_attention \
  $G/xformers_splitk_decode $G/vllm_unified_attention $G/extend_attention $G/jagged_silu_attention \
  $G/fbgemm_grouped_gemm_scatter_add --sizes 4096 --timeout 60 --out $OUT/gpu121-b.json 2>&1 | tee -a $OUT/run121.log
