#!/usr/bin/env bash
# Run 129 on the GPU machine (session 54): the launch that times a producer's kernel against the one-partition
# kernel of the same schedule (codegen/gluon/short.py with_timed_choice), on the ten committed kernels the route now
# writes so; the six kernels of the session's two sweeps (speed against Triton's default, and their GPU test).
set -u
G=bench/results/gluon
# (a) the six measured both ways in runs 127-128: the timed module alone (their two kernels' figures are there)
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 170 python bench/gluon_gpu.py $G/flagattn_bwd_kv $G/mamba_bmm_chunk_bwd \
  $G/deepseek_fp8_gemm $G/fla_fused_chunk_retention $G/fla_parallel_based $G/flagattn_piecewise --sizes 4096 \
  --timeout 40 --no-baselines --out $OUT/gpu129-a.json 2>&1 | tee -a $OUT/run129.log
# (b) the four others the route now times, against Triton's default
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $G/inductor_flex_decoding \
  $G/lightning_attention $G/mamba_chunk_state_bwd_db $G/pointer_attention --sizes 4096 --timeout 40 \
  --out $OUT/gpu129-b.json 2>&1 | tee -a $OUT/run129.log
