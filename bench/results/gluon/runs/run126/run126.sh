#!/usr/bin/env bash
# Run 126 on the GPU machine (session 53): the two kernels whose dot's B operand, loaded before the loop, is now put
# in shared memory once before it (twill.ir.ttgir.hoist_invariant_allocs) in place of a store every iteration:
# FlagAttention's dK / dV (K and V) and FlashAttention-2's Triton backward (V), each against Triton's default config.
set -u
G=bench/results/gluon
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 125 python bench/gluon_gpu.py $G/flagattn_bwd_kv $G/fa2_triton_bwd \
  --sizes 4096 --timeout 45 --out $OUT/gpu126.json 2>&1 | tee -a $OUT/run126.log
