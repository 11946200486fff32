#!/usr/bin/env bash
# Run 40 on the GPU machine (session 35): torch.compile (Inductor) kernels: inductor_softmax (three loops, Inductor's
# Triton helpers, 16 warps) and inductor_mm (the mm template: constants baked in, hinted row offsets, K counted down):
# checked (two seeds; NaN-poisoned) and timed against Triton's own compile of the file; then their GPU tests.
set -u
G=bench/results/gluon
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run40.log
for k in inductor_softmax inductor_mm; do
  PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $G/$k --out $OUT/gpu40-$k.json 2>&1 | tail -4 | tee -a $OUT/run40.log
done
PYTHONPATH=. timeout 200 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "inductor_softmax or inductor_mm" 2>&1 \
  | tail -4 | tee -a $OUT/run40.log
