#!/usr/bin/env bash
# Run 112 on the GPU machine (session 50): matmul_ogs and xFormers' seqpar matmul with their launchers' cp.async
# condition (COPY_ALIGNED) relaxed by hand to the arguments their copied addresses' 16-byte alignment depends on.
set -u
G=bench/results/gluon
R=$G/runs/run112
PYTHONPATH=. timeout 420 python bench/gluon_gpu.py $G/triton_kernels_matmul_ogs $R/triton_kernels_matmul_ogs-aligned \
  $G/xformers_seqpar_matmul $R/xformers_seqpar_matmul-aligned --sizes 16384 --timeout 75 \
  --out $OUT/gpu112.json 2>&1 | tee -a $OUT/run112.log
