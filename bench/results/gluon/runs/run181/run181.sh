#!/usr/bin/env bash
# Run 181 (session 68): Triton's default beside the four kernels run 180 rewrote (vLLM's GPTQ / AWQ MoE, GPTQ,
# SageAttention, FlagAttention's backward), in the same run; and SageAttention solved with --extra-stages 1 (its
# two-sub-tile schedule I=166, feasible, against the committed I=174). One device call.
set -u
G=bench/results/gluon; R=$G/runs/run181
DIRS="$G/vllm_fused_moe_gptq_awq $G/gptq_gemm $G/sage_attention $R/sage_attention-es1 $G/flagattn_bwd_kv"
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 575 python bench/gluon_gpu.py $DIRS --sizes 4096 --timeout 45 \
  --out $OUT/gpu181.json 2>&1 | tee $OUT/run181.log | grep -vi "warning"
