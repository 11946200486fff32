#!/usr/bin/env bash
# Run 128 on the GPU machine (session 54): is run 127 a rule? Kernels whose committed kernel is a producer beside one
# 4-warp consumer in one CTA an SM (persistent), each against its one-partition kernel (its tiles loaded by its own
# warps, copied as far ahead as still holds two CTAs an SM: `-alone`), against Triton's default, in one call.
set -u
G=bench/results/gluon
K=$G/runs/run128/kernels   # the one-partition variants it timed (moved here from $G after the run)
for k in deepseek_fp8_gemm fla_fused_chunk_retention fla_parallel_based flagattn_piecewise; do
  TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 100 python bench/gluon_gpu.py $G/$k $K/$k-alone --sizes 4096 \
    --timeout 40 --out $OUT/gpu128-$k.json 2>&1 | tee -a $OUT/run128.log
done
