#!/usr/bin/env bash
# Run 132 on the GPU machine (session 54): FLA's gated delta h as a fresh `twill optimize` writes it now, the
# short-loops module (the one-partition kernel where the loop runs at most 8 iterations a CTA: SMALL's T = 200),
# committed in place of its older single-kernel module; its GPU test (SMALL and PROBLEM) and its speed at PROBLEM.
set -u
G=bench/results/gluon
PYTHONPATH=. timeout 100 python -m pytest -q -p no:cacheprovider tests/gpu/test_gpu_gluon.py -k "fla_gated_delta_h" \
  2>&1 | tail -4 | tee -a $OUT/run132.log
PYTHONPATH=. timeout 80 python bench/gluon_gpu.py $G/fla_gated_delta_h --sizes 4096 --timeout 40 --no-baselines \
  --out $OUT/gpu132.json 2>&1 | tee -a $OUT/run132.log
