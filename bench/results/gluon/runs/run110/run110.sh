#!/usr/bin/env bash
# Run 110 on the GPU machine (session 50): the six kernels of sweeps c and d, first on the GPU, and vLLM's causal
# conv1d with its file fixed (run 108); each against its file's Triton kernel at PROBLEM, checked at SMALL and PROBLEM.
set -u
G=bench/results/gluon
PYTHONPATH=. timeout 560 python bench/gluon_gpu.py $G/vllm_causal_conv1d_fwd $G/mamba_state_passing_fwd \
  $G/xformers_seqpar_matmul $G/fbgemm_grouped_gemm_scatter_add $G/sglang_double_sparsity_decode $G/fla_chunk_gla_fwd_o \
  $G/fla_fused_recurrent_delta_rule --sizes 16384 --timeout 75 --out $OUT/gpu110.json 2>&1 | tee -a $OUT/run110.log
