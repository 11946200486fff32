#!/usr/bin/env bash
# Run 92 on the GPU machine (session 45): run 91's one-partition variants and tutorial 06's backward again with no
# proxy fence between a slot's cp.async copies and the wgmma reading it (Triton's pipelined loops have none; the fence
# now follows only a copy through registers).
set -u
run() { PYTHONPATH=. timeout 150 python bench/gluon_gpu.py "$@" 2>&1 | tail -2 | tee -a $OUT/run92.log; }
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run92.log
R=bench/results/gluon/runs/run92
for d in $R/bnb_int8_matmul_rowwise_own $R/vllm_fused_moe_pf2_own $R/vllm_fused_moe_own $R/flaggems_bmm_own $R/tut06_attn_bwd; do
  run $d --sizes 16384 --out $OUT/gpu92-$(basename $d).json
done
TWILL_COPY_OFF=1 run $R/tut06_attn_bwd --sizes 16384 --out $OUT/gpu92-tut06_attn_bwd-copyoff.json
