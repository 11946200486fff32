#!/usr/bin/env bash
# Run 180 (session 68): the kernels the current code (3b3dc643) writes differently from their committed ones, each new
# kernel (`<v>-new`) beside its committed one: a loop ptxas spills generated again with the consumers' pointer loads in
# their readers' stage (vLLM's GPTQ / AWQ MoE, GPTQ, SageAttention, FlagAttention's backward), and the rings sized for
# the busiest unit's iteration (session 66) on the kernels run 179 did not time (w4a16, the square attention, the int8
# block GEMM, flash_attn_triton, FLA's reverse cumsum, w8a16). No baselines. One device call.
set -u
G=bench/results/gluon; R=$G/runs/run180
DIRS=""
for v in vllm_fused_moe_gptq_awq gptq_gemm sage_attention flagattn_bwd_kv w4a16_gemm square_attention \
         fla_reverse_cumsum_norm sglang_w8a8_block_int8_gemm flash_attn_triton w8a16_gemm; do
  DIRS="$DIRS $G/$v $R/$v-new"
done
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 575 python bench/gluon_gpu.py $DIRS --sizes 4096 --timeout 45 --no-baselines \
  --out $OUT/gpu180.json 2>&1 | tee $OUT/run180.log | grep -vi "warning"
