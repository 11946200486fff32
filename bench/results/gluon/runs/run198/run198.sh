#!/usr/bin/env bash
# Run 198 (session 73): the consumers' own pointer loads two stages ahead of their readers instead of one
# (the committed schedules regenerated with loads_ahead = 2), beside the committed kernels in the same process:
# the fused RMSNorm GEMM (its x tiles scaled in registers before the dot; its norm loop too: a2s2) and the w4a16 GEMM.
set -u
G=bench/results/gluon
R=$G/runs/run198
export TRITON_CACHE_DIR=$(mktemp -d)
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 560 python bench/gluon_gpu.py $G/rmsnorm_prologue_gemm \
  $R/rmsnorm_prologue_gemm-a2 $R/rmsnorm_prologue_gemm-a2s2 $G/w4a16_gemm $R/w4a16_gemm-a2 --sizes 4096 --timeout 200 \
  --out $OUT/gpu198.json 2>&1 | tee $OUT/run198.log | grep -vi warning
