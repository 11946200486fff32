#!/usr/bin/env bash
# Run 120 on the GPU machine (session 52), after run 119 in the same call: where the three slowest real kernels' partitions
# spend their time, by PC sampling (ncu, one launch each on the kernel file's PROBLEM): vLLM's fused MoE (x0.67 of
# Triton's best), Mamba-2's bmm_chunk backward (x0.58) and its cp.async variant of run 119, DeepSeek-V3's fp8 GEMM
# (x0.81-0.88).
set -u
G=bench/results/gluon
PYTHONPATH=. timeout 300 python bench/gluon_stalls.py $G/vllm_fused_moe $G/mamba_bmm_chunk_bwd \
  $G/runs/run119/mamba_bmm_chunk_bwd-async $G/deepseek_fp8_gemm --out $OUT/stalls 2>&1 | tee -a $OUT/run120.log
