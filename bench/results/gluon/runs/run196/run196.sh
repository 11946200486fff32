#!/usr/bin/env bash
# Run 196 (session 72): host time per launch of run 192's smallest kernels (vLLM's rejection sampler ran x0.28 of
# Triton's default launched, x0.98 from a graph), the launcher's own work against Triton's launch, with cProfile.
set -u
G=bench/results/gluon
export TRITON_CACHE_DIR=$(mktemp -d)
PYTHONPATH=. timeout 300 python bench/launch_overhead.py $G/vllm_rejection_sample $G/csr_spmm_rows \
  $G/rmsnorm_prologue_gemm --profile 2>&1 | tee $OUT/run196.log | grep -vi warning
