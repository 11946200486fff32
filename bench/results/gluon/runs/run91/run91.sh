#!/usr/bin/env bash
# Run 91 on the GPU machine (session 45): three producer kernels Triton beats (vLLM's fused MoE x0.63, FlagGems' bmm
# x0.83, bitsandbytes' int8 GEMM x0.81) generated as one partition copying its own wgmma tiles ahead with cp.async
# (`--own-tiles on`: Triton's shape; MoE also 2 ahead, 4-slot rings, two CTAs an SM), each against the committed kernel
# (a cp.async producer beside the consumer) and Triton's best config of its file.
set -u
run() { PYTHONPATH=. timeout 150 python bench/gluon_gpu.py "$@" 2>&1 | tail -2 | tee -a $OUT/run91.log; }
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run91.log
R=bench/results/gluon/runs/run91
for d in bench/results/gluon/vllm_fused_moe $R/vllm_fused_moe_own $R/vllm_fused_moe_pf2_own \
         bench/results/gluon/flaggems_bmm $R/flaggems_bmm_own \
         bench/results/gluon/bnb_int8_matmul_rowwise $R/bnb_int8_matmul_rowwise_own; do
  run $d --sizes 16384 --out $OUT/gpu91-$(basename $d).json
done
