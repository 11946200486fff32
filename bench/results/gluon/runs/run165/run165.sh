#!/usr/bin/env bash
# Run 165 (session 63): the ALU's integer rate (alu_probe.py: Philox, fp32 FMAs, integer ops, 1 CTA an SM);
# AMD's dropout attention three ways (committed: 2 consumers + producer; --row-split 1: one 8-warp consumer +
# producer; --own-tiles on: one partition, as Triton); the new k-means assignment kernel against Triton's default.
set -u
G=bench/results/gluon; R=$G/runs/run165
PYTHONPATH=. timeout 120 python $R/alu_probe.py $OUT/alu165.json 2>&1 | tee $OUT/alu165.log | grep -vi warning
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 400 python bench/gluon_gpu.py $G/kmeans_assign $G/amd_fa_dropout_alibi \
  $R/amd_fa_dropout_alibi-rs1 $R/amd_fa_dropout_alibi-own --sizes 4096 --timeout 60 \
  --out $OUT/gpu165.json 2>&1 | tee $OUT/run165.log | grep -vi "warning"
