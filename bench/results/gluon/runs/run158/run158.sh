#!/usr/bin/env bash
# Run 158 (session 61): the 20 committed kernels whose launcher times the one partition against the producer's, now
# behind a device sleep (the events time the device's work, not the host's launches); then the host cost of a launch,
# by path, of vLLM's MoE and two others.
set -u
G=bench/results/gluon
L="vllm_fused_moe fbgemm_jagged_jagged_bmm vllm_ssd_chunk_scan triton_kernels_matmul_ogs flaggems_mm_peeled
grouped_matmul deepseek_fp8_gemm mamba_bmm_chunk_bwd flagattn_bwd_kv fla_fused_chunk_retention fla_parallel_based
flagattn_piecewise inductor_flex_decoding lightning_attention mamba_chunk_state_bwd_db minference_vertical_slash
pointer_attention unsloth_moe_grouped_gemm vllm_fused_moe_gptq_awq vllm_rocm_flash_attn_fwd"
D=""; for l in $L; do D="$D $G/$l"; done
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 420 python bench/gluon_gpu.py $D --sizes 4096 --timeout 40 --no-baselines \
  --out $OUT/gpu158.json 2>&1 | tee $OUT/run158.log | grep -vi "warning"
for l in vllm_fused_moe grouped_matmul gemm; do
  PYTHONPATH=. timeout 60 python bench/results/gluon/runs/run158/hostcost.py $l 2>&1 | grep -vi "warning" >> $OUT/host158.log
done
head -c 20000 $OUT/host158.log | grep " us$\|launch us"
