#!/usr/bin/env bash
# Run 42 on the GPU machine (session 35): Tri Dao's Triton FlashAttention forward (flash_attn_triton's _fwd_kernel, its
# TMP store-and-reload inside the loop) as twill writes it: checked (two seeds; NaN-poisoned) and timed against Triton's
# own compile of the same file and cuDNN; then its GPU test.
set -u
G=bench/results/gluon
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run42.log
PYTHONPATH=. timeout 300 python bench/gluon_gpu.py $G/flash_attn_triton --sizes 4096,16384 \
  --out $OUT/gpu42-flash_attn_triton.json 2>&1 | tail -4 | tee -a $OUT/run42.log
PYTHONPATH=. timeout 200 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "flash_attn_triton" 2>&1 | tail -3 \
  | tee -a $OUT/run42.log
