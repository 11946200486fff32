#!/usr/bin/env bash
# Run 50 on the GPU machine (session 37): a producer copying pointer tiles through registers (the launch cannot use
# cp.async) now loads all of an iteration's tiles before storing any. i64_bounds_gemm (sizes loaded from memory: always
# that path) and tail_gemm (its MORE_CHECKS launch takes it) against the kernels before (runs/run50/before/); then the
# GPU tests of the thirteen committed kernels whose source the change rewrote.
set -u
G=bench/results/gluon
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run50.log
for v in i64_bounds_gemm tail_gemm; do
  PYTHONPATH=. timeout 120 python bench/gluon_gpu.py $G/runs/run50/before/$v $G/$v --out $OUT/gpu50-$v.json 2>&1 \
    | tail -4 | tee -a $OUT/run50.log
done
V="tail_gemm grouped_gemm chunk_state varlen_attention paged_prefill unroll_gemm chunk_output lightning_attention
softcap_attention sage_attention lora_shrink jagged_silu_attention i64_bounds_gemm"
PYTHONPATH=. timeout 360 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "$(echo $V | sed 's/ / or /g')" 2>&1 \
  | tail -4 | tee -a $OUT/run50.log
