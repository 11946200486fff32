#!/usr/bin/env bash
# Run 39 on the GPU machine (session 35): token_quant_fp8 (tl.clamp as a max and a min; an fp8 cast; two loops) and
# chunk_kkt (FLA's chunk_scaled_dot_kkt: one K tile both operands, the loop's own shared copy read transposed):
# checked (two seeds; SMALL and PROBLEM; NaN-poisoned) and timed against Triton's own compile; then their GPU tests.
set -u
G=bench/results/gluon
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run39.log
for k in token_quant_fp8 chunk_kkt; do
  PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $G/$k --out $OUT/gpu39-$k.json 2>&1 | tail -4 | tee -a $OUT/run39.log
done
PYTHONPATH=. timeout 200 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "token_quant_fp8 or chunk_kkt" 2>&1 | tail -4 \
  | tee -a $OUT/run39.log
