#!/usr/bin/env bash
# Run 41 on the GPU machine (session 35): prefix_scores with its wgmma kept in flight across iterations (its register A
# operand comes from before the loop, so the dot no longer retires in its own body): checked and timed again against
# Triton's best (run 37: 0.0254 ms from graphs against 0.0181, x0.71); then its GPU test.
set -u
G=bench/results/gluon
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run41.log
PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $G/prefix_scores --out $OUT/gpu41-prefix_scores.json 2>&1 | tail -3 \
  | tee -a $OUT/run41.log
PYTHONPATH=. timeout 200 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "prefix_scores" 2>&1 | tail -3 \
  | tee -a $OUT/run41.log
