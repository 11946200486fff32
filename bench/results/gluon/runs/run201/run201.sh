#!/usr/bin/env bash
# Run 201 (session 73): Apex's multi-tensor Adam with its workspace kept out of the harness's input copies.
set -u
G=bench/results/gluon
export TRITON_CACHE_DIR=$(mktemp -d)
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 300 python bench/gluon_gpu.py $G/apex_multi_tensor_adam --timeout 150 \
  --out $OUT/gpu201.json 2>&1 | tee $OUT/run201.log | grep -vi warning
