#!/usr/bin/env bash
# Run 194 (session 72): inductor's conv template with its filter taps unrolled (nine K loops in sequence), checked and
# timed against Triton's default.
set -u
G=bench/results/gluon
export TRITON_CACHE_DIR=$(mktemp -d)
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 300 python bench/gluon_gpu.py $G/inductor_conv_unrolled --sizes 4096 \
  --timeout 200 --out $OUT/gpu194.json 2>&1 | tee $OUT/run194.log | grep -vi warning
