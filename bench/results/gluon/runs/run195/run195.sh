#!/usr/bin/env bash
# Run 195 (session 72): a depthwise conv whose loop over the filter's rows carries the accumulator, now unrolled as
# tl.static_range by twill's front end: checked and timed against Triton's default.
set -u
G=bench/results/gluon
export TRITON_CACHE_DIR=$(mktemp -d)
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 300 python bench/gluon_gpu.py $G/depthwise_conv2d_nhwc --sizes 4096 \
  --timeout 200 --out $OUT/gpu195.json 2>&1 | tee $OUT/run195.log | grep -vi warning
