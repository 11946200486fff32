#!/usr/bin/env bash
# Run 159 (session 61): the short-loop one partition against the producer, each forced, at 2, 4 and 8 iterations a
# CTA, on five committed kernels whose one partition holds as many CTAs an SM as the producer.
set -u
for l in chunk_scan mamba_bmm_chunk tut03_autotune_matmul int4_gemm fla_chunk_bwd_dh; do
  PYTHONPATH=. timeout 70 python bench/results/gluon/runs/run159/sweep.py $l --out $OUT/$l.json 2>&1 \
    | grep -vi "warning" | tee -a $OUT/run159.log
done
