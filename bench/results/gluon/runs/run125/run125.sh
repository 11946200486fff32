#!/usr/bin/env bash
# Run 125 on the GPU machine (session 52): bench/gluon_gpu.py's new launch-path record, on vLLM's MoE (cp.async and TMA at
# its PROBLEM since 176909c) and on the same kernel with TWILL_COPY_OFF=1 (every copy through registers).
set -u
G=bench/results/gluon
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 100 python bench/gluon_gpu.py $G/vllm_fused_moe --timeout 60 \
  --out $OUT/gpu125-a.json 2>&1 | grep -v "^baseline" | tee -a $OUT/run125.log
TWILL_COPY_OFF=1 TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 100 python bench/gluon_gpu.py $G/vllm_fused_moe --timeout 60 \
  --out $OUT/gpu125-b.json 2>&1 | grep -v "^baseline" | tee -a $OUT/run125.log
