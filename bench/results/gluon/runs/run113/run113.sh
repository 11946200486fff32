#!/usr/bin/env bash
# Run 113 on the GPU machine (session 50): the launchers' cp.async condition from a divisibility analysis of the
# copied addresses (plan.copy_arguments / _divisibility): 39 committed kernels' COPY_ALIGNED lists change; here the
# two it was made for and five others whose lists lost arguments, checked and timed against Triton's best.
set -u
G=bench/results/gluon
PYTHONPATH=. timeout 560 python bench/gluon_gpu.py $G/triton_kernels_matmul_ogs $G/xformers_seqpar_matmul \
  $G/vllm_fused_moe $G/grouped_matmul $G/flat_persistent_gemm $G/unsloth_moe_grouped_gemm $G/lora_shrink \
  --sizes 16384 --timeout 70 --out $OUT/gpu113.json 2>&1 | tee -a $OUT/run113.log
