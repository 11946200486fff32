#!/usr/bin/env bash
# Run 202 e (session 75): the conv of run 202 c with its copies on cp.async (a flattened nest's channel offset asks no
# divisibility of the filter width: `plan._mask_arguments`), at 8 warps (the route's: it converts no loaded tile,
# `gluon_route.converts_a_loaded_tile`) against 4; RoIAlign (its parameter named as the Python one) and the depthwise
# conv at their PROBLEMs; Mamba's chunk state and the 2:4 sparse GEMM, whose cp.async condition lost dstate and M
# (their checks at SMALL run the new condition), all against Triton's default.
set -u
G=bench/results/gluon
R=$G/runs/run202
export TRITON_CACHE_DIR=$(mktemp -d)
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 560 python bench/gluon_gpu.py $G/nested_filter_conv2d $R/nested_filter_conv2d-w4 \
  $G/torchvision_roi_align_nhwc $G/depthwise_conv2d_nhwc $G/mamba_chunk_state $G/sparse24_meta_gemm \
  --timeout 150 --out $OUT/gpu202e.json 2>&1 | tee $OUT/run202e.log | grep -vi warning
