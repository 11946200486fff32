#!/usr/bin/env bash
# Run 203 (session 77). a1-a3: the 47 committed kernels that no GPU run has timed at their current kernel hash
# (`bench/gluon_latest.py` matches none of their records: changed since their last run, or never timed), checked
# against their references (two seeds, NaN-poisoned outputs) and timed against Triton's default at their PROBLEMs.
# b: five kernels the route chose with spills in the loop, committed against the same route with every candidate
# solved in one stage (`one_stage_probe.py`, `-1s`: ptxas allocates each clean) and, for Performer's key state and T5's
# bucketed relative-position attention, the one partition loading its own tiles (`--own-tiles on`, `-own`).
set -u
G=bench/results/gluon
R=$G/runs/run203
export TRITON_CACHE_DIR=$(mktemp -d)
A1="attorch_layer_norm fbgemm_fp8_row_persistent fla_fused_recurrent_dplr fla_gated_delta_h
 fla_gla_intra_sub_inter fla_recompute_w_u flaggems_softmax_inner flashinfer_sampling_from_probs
 flashinfer_varlen_merge_states gemlite_a16w4_gemm gptoss_sink_attention histc_privatized
 inductor_log_softmax inductor_persistent_tma_flatten kernl_linear_gelu liger_dyt_bwd"
A2="liger_geglu_fwd liger_kldiv_bwd liger_layer_norm_bwd liger_rms_norm_bwd lightllm_rope_destindex_kv
 lightllm_token_att mamba_selective_state_update_dimloop moe_align_block_size nsa_selected_attention
 ops_matmul_swizzle2d rocm_fp8_gemm_bias_act rope_embedding row_atomics sglang_decode_grouped
 sglang_ep_gather stk_dsd"
A3="streamk_gemm torchao_fp8_blockwise_act_quant torchao_int8_wo_mm triton_kernels_mxfp4_matmul
 tritonbench_jagged_softmax tut03_autotune_matmul tut06_attn_fwd tut09_desc_persistent_ws unroll_gemm
 unsloth_swiglu_bwd vllm_decode_stage1 vllm_fused_add_rms_norm vllm_mla_decode
 vllm_rocm_flash_attn_fwd vllm_ssd_chunk_scan"
# a4: what a3 did not reach in session 77 (the device budget spent), for a later session
A4="torchao_fp8_blockwise_act_quant triton_kernels_mxfp4_matmul tritonbench_jagged_softmax tut03_autotune_matmul
 tut09_desc_persistent_ws unroll_gemm vllm_fused_add_rms_norm vllm_ssd_chunk_scan"
case "${1:-}" in
  a1) L=$A1 ;;
  a4) L=$A4 ;;
  a2) L=$A2 ;;
  a3) L=$A3 ;;
  b) L="" ;;
  *) echo "usage: $0 a1|a2|a3|a4|b" >&2; exit 2 ;;
esac
if [ "$1" = b ]; then
  DIRS=""
  for k in performer_favor_linear_attention t5_relpos_bucket_attention square_attention fla_reverse_cumsum_norm; do
    DIRS="$DIRS $G/$k $(ls -d $R/$k-own $R/$k-1s 2>/dev/null | tr '\n' ' ')"
  done
else
  DIRS=$(for k in $L; do echo $G/$k; done)
fi
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 580 python bench/gluon_gpu.py $DIRS --sizes 4096 \
  --timeout 120 --out $OUT/gpu203$1.json 2>&1 | tee $OUT/run203$1.log | grep -vi warning
