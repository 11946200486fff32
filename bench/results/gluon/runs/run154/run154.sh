#!/usr/bin/env bash
# Run 154 (session 60): the six kernels the staged operands' keep-alive rewrote (a staged A operand used once more
# after the loop's last wgmma wait), correctness at every check problem and time at N = 4096.
set -u
G=bench/results/gluon
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 560 python bench/gluon_gpu.py $G/fa2_triton_bwd $G/fa_bwd $G/square_attention \
  $G/square_attention-one-group $G/flash_attn_triton $G/lightllm_context_attention --sizes 4096 --timeout 60 \
  --no-baselines --out $OUT/gpu154.json 2>&1 | tee $OUT/run154.log | grep -vi "warning"
