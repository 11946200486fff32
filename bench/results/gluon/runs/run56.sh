#!/usr/bin/env bash
# Run 56 on the GPU machine (session 38): i64_bounds_gemm with its tiles loaded by its one partition in one stage and
# stored to shared memory for the wgmma (no producer: cp.async cannot copy tiles whose addresses are not known aligned),
# as Triton compiles the loop, against run 49's kernel (runs/run50/before/: an 8-warp producer copying them through its
# 64 registers); then its GPU test.
set -u
G=bench/results/gluon
PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $G/runs/run50/before/i64_bounds_gemm $G/i64_bounds_gemm \
  --out $OUT/gpu56-i64_bounds_gemm.json 2>&1 | tail -4 | tee -a $OUT/run56.log
PYTHONPATH=. timeout 120 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "i64_bounds_gemm" 2>&1 | tail -3 \
  | tee -a $OUT/run56.log
