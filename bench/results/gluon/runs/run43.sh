#!/usr/bin/env bash
# Run 43 on the GPU machine (session 36): six kernels in public libraries' styles, each a construct the corpus lacked
# (tutorial 06's FP8 path with V^T by TMA, 4-bit weights through tl.interleave, a 3-D reshape and group max with the
# loop variable read a stage later, Mamba-2's chunk scan, Lightning Attention's carried state, Gemma-2's D = 256
# soft-capped window attention): checked (two seeds, NaN-poisoned) and timed against Triton's own compile of the same
# file; then their GPU tests.
set -u
G=bench/results/gluon
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run43.log
for v in ${@:-fp8_attention w4a16_gemm group_quant_fp8 chunk_scan lightning_attention softcap_attention}; do
  PYTHONPATH=. timeout 300 python bench/gluon_gpu.py $G/$v --sizes 4096,16384 --out $OUT/gpu43-$v.json 2>&1 | tail -4 \
    | tee -a $OUT/run43.log
done
PYTHONPATH=. timeout 400 python -m pytest -q tests/gpu/test_gpu_gluon.py \
  -k "${GPU_TESTS:-fp8_attention or w4a16_gemm or group_quant_fp8 or chunk_scan or lightning_attention or softcap_attention}" \
  2>&1 | tail -4 | tee -a $OUT/run43.log
