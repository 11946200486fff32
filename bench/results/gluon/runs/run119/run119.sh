#!/usr/bin/env bash
# Run 119 on the GPU machine (session 51, the device time's last minute): Mamba-2's bmm_chunk backward (x0.58 in run
# 118) with its register-read dCB^T tile copied by the consumer with cp.async (`--async-tiles on`) against the committed
# kernel, which loads it a stage ahead into registers and converts its layout through shared memory every iteration.
set -u
G=bench/results/gluon
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 62 python bench/gluon_gpu.py $G/mamba_bmm_chunk_bwd \
  $G/runs/run119/mamba_bmm_chunk_bwd-async --timeout 30 --out $OUT/gpu119.json 2>&1 | tee -a $OUT/run119.log
