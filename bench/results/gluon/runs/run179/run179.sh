#!/usr/bin/env bash
# Run 179 (session 66): every sampled kernel the current code writes differently from its committed one, each new
# kernel (`<v>-new`) beside its committed one, and where the committed code (e1efe18e) writes a third, that one
# (`<v>-head`): the producer's copies held for their issue (`copied_async`, dots its only readers), the rings sized for
# the busiest unit's iteration under the II and back to the II's depth where that fits two CTAs, loads sharing a wide
# address tile run in one stage. No baselines. `run179.sh a` and `run179.sh b`: the two halves, one device call each
# (b without streamk, tf32, FlagAttention's piecewise, the fused-RoPE attention and its two -head kernels: the device
# time a lost first call of a took).
set -u
G=bench/results/gluon; R=$G/runs/run179
case "${1:-}" in
  a) DIRS="$G/vllm_fused_moe_gptq_awq $R/vllm_fused_moe_gptq_awq-new $R/vllm_fused_moe_gptq_awq-head $G/w8a16_gemm $R/w8a16_gemm-new $R/w8a16_gemm-head $G/fla_chunk_h $R/fla_chunk_h-new $G/chunk_state $R/chunk_state-new $G/fla_chunk_bwd_dqkwg $R/fla_chunk_bwd_dqkwg-new $G/sglang_w8a8_block_int8_gemm $R/sglang_w8a8_block_int8_gemm-new $G/vllm_scaled_mm $R/vllm_scaled_mm-new $G/xformers_bias_dropout_residual $R/xformers_bias_dropout_residual-new $G/flash_attn_triton $R/flash_attn_triton-new $G/fla_gated_delta_h $R/fla_gated_delta_h-new $R/fla_gated_delta_h-head $G/fbgemm_grouped_gemm_scatter_add $R/fbgemm_grouped_gemm_scatter_add-new $G/conv_implicit_gemm $R/conv_implicit_gemm-new $R/conv_implicit_gemm-head $G/block_ptr_gemm $R/block_ptr_gemm-new $G/fp8_gemm $R/fp8_gemm-new $G/inductor_mm $R/inductor_mm-new $G/persistent_gemm $R/persistent_gemm-new $G/guarded_gemm $R/guarded_gemm-new $G/splitk_gemm $R/splitk_gemm-new" ;;
  b) DIRS="$G/i64_bounds_gemm $R/i64_bounds_gemm-new $G/mamba_bmm_chunk $R/mamba_bmm_chunk-new $G/mamba_chunk_scan_bwd_dx $R/mamba_chunk_scan_bwd_dx-new $G/mamba_bmm_chunk_bwd $R/mamba_bmm_chunk_bwd-new $G/mamba_chunk_state $R/mamba_chunk_state-new $G/minference_vertical_slash $R/minference_vertical_slash-new $G/paged_prefill $R/paged_prefill-new $G/stk_dsd $R/stk_dsd-new $G/torchtitan_cg_persistent $R/torchtitan_cg_persistent-new $G/vllm_prefix_prefill $R/vllm_prefix_prefill-new $G/vllm_ssd_chunk_scan $R/vllm_ssd_chunk_scan-new $G/vllm_unified_attention $R/vllm_unified_attention-new $G/gr_hstu_ragged_relbias $R/gr_hstu_ragged_relbias-new $G/bias_attention $R/bias_attention-new $G/fla_wy_repr_bwd $R/fla_wy_repr_bwd-new $G/chunk_scan $R/chunk_scan-new" ;;
  *) echo "usage: $0 a|b" >&2; exit 2 ;;
esac
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 575 python bench/gluon_gpu.py $DIRS --sizes 4096 --timeout 45 --no-baselines \
  --out $OUT/gpu179$1.json 2>&1 | tee $OUT/run179$1.log | grep -vi "warning"
