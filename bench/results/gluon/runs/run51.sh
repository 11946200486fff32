#!/usr/bin/env bash
# Run 51 on the GPU machine (session 37): AutoGPTQ's 4-bit GEMM and attention with a bias matrix, checked (two seeds,
# SMALL and PROBLEM, NaN-poisoned) and timed against Triton's own compile of the same file; then their GPU tests.
set -u
G=bench/results/gluon
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run51.log
for v in gptq_gemm bias_attention; do
  PYTHONPATH=. timeout 100 python bench/gluon_gpu.py $G/$v --out $OUT/gpu51-$v.json 2>&1 | tail -3 | tee -a $OUT/run51.log
done
PYTHONPATH=. timeout 100 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "gptq_gemm or bias_attention" 2>&1 | tail -2 \
  | tee -a $OUT/run51.log
