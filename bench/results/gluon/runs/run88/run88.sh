#!/usr/bin/env bash
# Run 88 on the GPU machine (session 44): two kernels of this session's sweep, first run on the GPU, each against
# Triton's best config of its file: bitsandbytes' int8 matmul with row-wise dequantize (its kernel inside the file's
# top-level if/else) and Tri Dao's layer-norm backward (rows per program, dw/db accumulated across rows).
set -u
run() { PYTHONPATH=. timeout 200 python bench/gluon_gpu.py "$@" 2>&1 | tail -5 | tee -a $OUT/run88.log; }
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run88.log
for v in bnb_int8_matmul_rowwise tridao_ln_bwd; do
  run bench/results/gluon/$v --sizes 16384 --out $OUT/gpu88-$v.json
done
