#!/usr/bin/env bash
# Run 202 (session 74), two calls: the kernel's warps as a search dimension of the route. Every committed kernel whose
# spec's 8 warps became one 8-warp consumer beside an 8-warp producer, one CTA an SM (36 beside run 199's three),
# was solved again at --num-warps 4 (`runs/run202/<name>-w4`); each call times committed (8 warps) against 4 warps,
# A then B in one process each, checks (two seeds, NaN-poisoned outputs) included. The lists: `list_a.txt`,
# `list_b.txt`, kernels the model predicts faster at 4 warps and kernels it predicts a tie (the tensor core's bound).
# c: torchvision's RoIAlign and a conv whose runtime-bounded filter loops wrap its channel loop, their nests flattened
# into one loop (`twill.ir.flatten`; the conv at 4 warps by `choose_warps`), against Triton's default.
set -u
G=bench/results/gluon
R=$G/runs/run202
export TRITON_CACHE_DIR=$(mktemp -d)
if [ "${1:-a}" = c ]; then
  TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 300 python bench/gluon_gpu.py $G/torchvision_roi_align_nhwc $G/nested_filter_conv2d $R/nested_filter_conv2d-w8 \
    --timeout 150 --out $OUT/gpu202c.json 2>&1 | tee $OUT/run202c.log | grep -vi warning
  exit
fi
dirs=()
for n in $(cat $R/list_${1:-a}.txt); do dirs+=("$G/$n" "$R/$n-w4"); done
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 570 python bench/gluon_gpu.py "${dirs[@]}" --sizes 4096 --timeout 100 \
  --no-baselines --out $OUT/gpu202${1:-a}.json 2>&1 | tee $OUT/run202${1:-a}.log | grep -vi warning
