#!/usr/bin/env bash
# Run 127 on the GPU machine (session 54): one-partition kernels (each loading its own tiles, no producer) against the
# committed producer / consumer kernels, where the one-partition plan leaves room for two CTAs an SM (Triton's own
# compile of both files runs two CTAs of 4 warps): FlagAttention's dK / dV with its own tiles copied 1 iteration
# ahead (147 KB, one CTA) and loaded a stage ahead in registers (--prefetch 0: 98 KB planned, 106 KB compiled, two
# CTAs), Mamba-2's bmm_chunk backward with its own tiles (57 KB compiled).
set -u
G=bench/results/gluon
K=$G/runs/run127/kernels   # the one-partition variants it timed (moved here from $G after the run)
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $G/flagattn_bwd_kv $K/flagattn_bwd_kv-own \
  $K/flagattn_bwd_kv-own-p0 --sizes 4096 --timeout 45 --out $OUT/gpu127-a.json 2>&1 | tee -a $OUT/run127.log
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 120 python bench/gluon_gpu.py $G/mamba_bmm_chunk_bwd \
  $K/mamba_bmm_chunk_bwd-own --sizes 16384 --timeout 45 --out $OUT/gpu127-b.json 2>&1 | tee -a $OUT/run127.log
