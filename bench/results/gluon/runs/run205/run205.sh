#!/usr/bin/env bash
# Run 205 (session 78): the accumulator a kernel's own loop carries, split by rows among two consumers
# (block_skip_gemm `--row-split 2`, `-rows2`: each consumer holds its 64 rows through the loop over K blocks and its
# `if`, and stores them after it), against the committed one-consumer kernel in the same process; torchtitan's MoE
# weight gradient as committed since run 204 (the producer's kernel and the one partition in one module, the launch
# timing the two), checked against their references (two seeds, NaN-poisoned outputs) and timed against Triton's
# default at their PROBLEMs.
set -u
G=bench/results/gluon
export TRITON_CACHE_DIR=$(mktemp -d)
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 580 python bench/gluon_gpu.py $G/block_skip_gemm \
  $G/runs/run205/block_skip_gemm-rows2 $G/torchtitan_cg_backward_dw --sizes 4096 --timeout 150 \
  --out $OUT/gpu205.json 2>&1 | tee $OUT/run205.log | grep -vi warning
