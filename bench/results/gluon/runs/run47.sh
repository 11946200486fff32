#!/usr/bin/env bash
# Run 47 on the GPU machine (session 37): mx_gemm again (its tiles a wgmma reads now copied with cp.async where held a
# stage in registers they spilled), an FP8 GEMM with max_num_imprecise_acc=32 (now passed to the wgmma) and HSTU's
# jagged SiLU attention: checked (two seeds, SMALL and PROBLEM, NaN-poisoned) and timed against Triton's own compile of
# the same file; then their GPU tests.
set -u
G=bench/results/gluon
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run47.log
for v in ${@:-mx_gemm fp8_rowwise_gemm jagged_silu_attention}; do
  PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $G/$v --out $OUT/gpu47-$v.json 2>&1 | tail -4 \
    | tee -a $OUT/run47.log
done
PYTHONPATH=. timeout 200 python -m pytest -q tests/gpu/test_gpu_gluon.py \
  -k "${GPU_TESTS:-mx_gemm or fp8_rowwise_gemm or jagged_silu_attention}" 2>&1 | tail -4 | tee -a $OUT/run47.log
