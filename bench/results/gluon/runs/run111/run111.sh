#!/usr/bin/env bash
# Run 111 on the GPU machine (session 50): the two sweep kernels slowest against Triton (run 108/110: xFormers'
# seqpar matmul x0.36, triton_kernels' matmul_ogs x0.71), each as committed (a 4-warp cp.async producer beside one
# consumer) and as one partition copying its own wgmma tiles with cp.async (`--own-tiles on`, Triton's own shape).
set -u
G=bench/results/gluon
R=$G/runs/run111
PYTHONPATH=. timeout 420 python bench/gluon_gpu.py $G/xformers_seqpar_matmul $R/xformers_seqpar_matmul-own \
  $G/triton_kernels_matmul_ogs $R/triton_kernels_matmul_ogs-own --sizes 16384 --timeout 75 \
  --out $OUT/gpu111.json 2>&1 | tee -a $OUT/run111.log
