#!/usr/bin/env bash
# Run 124 on the GPU machine (session 52): the GPU test (tests/gpu/test_gpu_gluon.py: each kernel in its own process,
# two seeds x (SMALL, PROBLEM), NaN-poisoned outputs) on the 26 committed kernels whose cp.async condition the mask rule
# shortened (176909c) and that runs 121-123 did not run: their launches at non-divisible row counts now copy with cp.async.
set -u
K="block_ptr_gemm or chunk_output or chunk_scan or chunk_state or fla_chunk_bwd_dh or fla_chunk_h or fla_chunk_o"
K="$K or fla_fused_chunk_retention or fla_gated_delta_h or fla_gla_intra_sub_inter or fla_parallel_based"
K="$K or flaggems_bmm or gemlite_a16w4_gemm or grouped_decode_attention or int4_gemm or lightning_attention"
K="$K or lora_shrink or mamba_bmm_chunk_bwd or mamba_chunk_state or sglang_decode_grouped or softcap_attention"
K="$K or vllm_mla_decode or vllm_scaled_mm or vllm_ssd_chunk_scan or w8a16_gemm"
PYTHONPATH=. timeout 540 python -m pytest -q -rA tests/gpu/test_gpu_gluon.py -k "$K" 2>&1 | tail -45 | tee $OUT/run124.log
