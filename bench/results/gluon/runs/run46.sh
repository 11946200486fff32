#!/usr/bin/env bash
# Run 46 on the GPU machine (session 37): four kernels in public libraries' styles, each a construct the corpus lacked
# (SageAttention's int8 QK with per-block scales and an fp16-accumulated PV, an implicit-GEMM 3x3 convolution's nine
# static_range tap loops, tutorial 10's tl.dot_scaled decomposed on Hopper, punica's LoRA shrink with gathered rows,
# split K and atomics): checked (two seeds, SMALL and PROBLEM, NaN-poisoned) and timed against Triton's own compile of
# the same file; then their GPU tests.
set -u
G=bench/results/gluon
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run46.log
for v in ${@:-sage_attention conv_implicit_gemm mx_gemm lora_shrink}; do
  PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $G/$v --out $OUT/gpu46-$v.json 2>&1 | tail -4 \
    | tee -a $OUT/run46.log
done
PYTHONPATH=. timeout 200 python -m pytest -q tests/gpu/test_gpu_gluon.py \
  -k "${GPU_TESTS:-sage_attention or conv_implicit_gemm or mx_gemm or lora_shrink}" 2>&1 | tail -4 | tee -a $OUT/run46.log
