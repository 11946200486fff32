#!/usr/bin/env bash
# Run 191 (session 71): the MoE grouped GEMM whose expert search (a loop of scalars before its K loop) every partition
# now writes as it runs: its first GPU run, checked and timed against Triton's default.
set -u
G=bench/results/gluon
export TRITON_CACHE_DIR=$(mktemp -d)
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $G/moe_offs_grouped_mm --sizes 4096 \
  --timeout 120 --out $OUT/gpu191.json 2>&1 | tee $OUT/run191.log | grep -vi warning
