#!/usr/bin/env bash
# Run 157 (session 61): the five kernels whose launcher now times the one partition against the producer's inside
# the short-loop bounds (run 156), then 24 committed kernels whose latest figure is matched by label only.
set -u
G=bench/results/gluon
L="vllm_fused_moe fbgemm_jagged_jagged_bmm vllm_ssd_chunk_scan triton_kernels_matmul_ogs flaggems_mm_peeled
fla_solve_tril vllm_fused_moe_gptq_awq gemm-two-groups mx_gemm mamba_bmm_chunk w4a16_gemm w8a16_gemm chunk_scan
rope_fused_attention sglang_double_sparsity_decode flaggems_bmm fla_chunk_global_cumsum xformers_seqpar_matmul
device_descriptor_gemm fused_moe_decode diagonal_mask_attention layer_norm sglang_fused_moe_fp8 asm_gemm splitk_gemm
fla_chunk_h mamba_chunk_state guarded_gemm ieee_gemm"
D=""; for l in $L; do D="$D $G/$l"; done
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 580 python bench/gluon_gpu.py $D --sizes 4096 --timeout 40 --no-baselines \
  --out $OUT/gpu157.json 2>&1 | tee $OUT/run157.log | grep -vi "warning"
