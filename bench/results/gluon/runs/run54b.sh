#!/usr/bin/env bash
# Run 54b on the GPU machine (session 38): liger_cross_entropy again, its launch now capturable by a CUDA graph (the
# rows not ignored counted in make_inputs, not by .item() in launch, which broke Triton's timing and ours in run 54).
set -u
G=bench/results/gluon
PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $G/liger_cross_entropy --out $OUT/gpu54b-liger_cross_entropy.json 2>&1 \
  | tail -4 | tee -a $OUT/run54b.log
PYTHONPATH=. timeout 120 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "liger_cross_entropy" 2>&1 | tail -3 \
  | tee -a $OUT/run54b.log
