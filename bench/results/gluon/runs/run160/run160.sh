#!/usr/bin/env bash
# Run 160 (prepared in session 61, for the next session's device time): (a) the 21 committed kernels whose module
# lost its one-partition kernel (run 159's rule; the producer's device code unchanged), timed with their new hashes.
set -u
G=bench/results/gluon
L="chunk_scan mamba_bmm_chunk int4_gemm tut03_autotune_matmul fla_chunk_bwd_dh bnb_int8_matmul_rowwise
device_descriptor_gemm dot_scaled_fp8_desc fa3-one-group fa3_subtiled fla_gated_delta_h flash_attn_triton
inductor_persistent_tma_flatten memset_guarded_gemm nf4_lut_gather_gemm sglang_fused_moe_fp8 torchao_hqq_mixed_mm
triton_kernels_mxfp4_matmul tut09_desc_persistent_ws vllm_scaled_mm xformers_seqpar_matmul fla_solve_tril"
D=""; for l in $L; do D="$D $G/$l"; done
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 560 python bench/gluon_gpu.py $D --sizes 4096 --timeout 40 --no-baselines \
  --out $OUT/gpu160.json 2>&1 | tee $OUT/run160.log | grep -vi "warning"
