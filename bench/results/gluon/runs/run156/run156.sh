#!/usr/bin/env bash
# Run 156 (session 61): the short-loop one-partition kernel against the warp-specialized one, each forced, at 8, 12,
# 16, 24 and 32 iterations a CTA, on the four committed kernels whose one partition holds 3 CTAs an SM against 2.
set -u
for l in vllm_fused_moe flaggems_mm_peeled triton_kernels_matmul_ogs fbgemm_jagged_jagged_bmm; do
  PYTHONPATH=. timeout 150 python bench/results/gluon/runs/run156/sweep.py $l --out $OUT/$l.json 2>&1 \
    | grep -vi "warning" | tee -a $OUT/run156.log
done
