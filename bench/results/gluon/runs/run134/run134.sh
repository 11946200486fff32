#!/usr/bin/env bash
# Run 134 on the GPU machine (session 55): a one-partition kernel's loops allocate their own buffers just before
# each loop (codegen/gluon/kernel.py local_buffers), so sibling loops share bytes: FLA's WY backward compiles to
# 65,536 bytes of shared memory, not 122,880 (2 CTAs an SM, not 1). Its GPU test and three other kernels whose
# compiled shared memory changed; then the WY backward before (runs/run134/before/, 3c0c26c) and now, against
# Triton's default at its PROBLEM.
set -u
G=bench/results/gluon
B=$G/runs/run134/before
PYTHONPATH=. timeout 80 python -m pytest -q -p no:cacheprovider tests/gpu/test_gpu_gluon.py \
  -k "fla_wy_repr_bwd or vllm_prefix_prefill or fla_recompute_w_u" 2>&1 | tail -4 | tee -a $OUT/run134.log
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 75 python bench/gluon_gpu.py $B/fla_wy_repr_bwd $G/fla_wy_repr_bwd \
  --sizes 4096 --timeout 30 --out $OUT/gpu134.json 2>&1 | tee -a $OUT/run134.log
