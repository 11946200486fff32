#!/usr/bin/env bash
# Run 5 on the GPU machine (one call): A/B of the persistent kernels (fa3, gemm) against the same schedules
# launched one CTA per tile, interleaved; the other regenerated variants; the GPU Gluon tests.
set -u
G=bench/results/gluon
PYTHONPATH=. python bench/gluon_gpu.py $G/fa3 $G/fa3-not-persistent $G/gemm $G/gemm-not-persistent \
  $G/fa3-not-persistent $G/fa3 $G/gemm-not-persistent $G/gemm $G/fa3 $G/fa3-not-persistent \
  $G/fa3-no-tc-order $G/fa3_subtiled $G/fa3-one-group $G/gemm-two-groups $G/fa_bwd \
  --timeout 120 --out $OUT/run5.json 2>&1 | tee $OUT/run5.log
PYTHONPATH=. timeout 200 python -m pytest -q tests/gpu/test_gpu_gluon.py 2>&1 | tail -5 | tee -a $OUT/run5.log
