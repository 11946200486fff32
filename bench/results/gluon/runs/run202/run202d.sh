#!/usr/bin/env bash
# Run 202 d (session 75): RoIAlign again, its parameter named as the Python one and timed at its PROBLEM (an image's
# N, H, W no longer read as FA's sequence length and heads by bench/gluon_gpu.py).
set -u
G=bench/results/gluon
export TRITON_CACHE_DIR=$(mktemp -d)
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 300 python bench/gluon_gpu.py $G/torchvision_roi_align_nhwc $G/depthwise_conv2d_nhwc \
  --timeout 150 --out $OUT/gpu202d.json 2>&1 | tee $OUT/run202d.log | grep -vi warning
