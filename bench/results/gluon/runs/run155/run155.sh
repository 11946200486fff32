#!/usr/bin/env bash
# Run 155 (session 60): 30 committed kernels whose latest figure is from before run 140 (matched by label) and whose
# device code changed since that run: correctness at every check problem and time, with the kernels' hashes now.
set -u
G=bench/results/gluon
L="fa3 gemm fa_causal fa3_subtiled persistent_gemm block_ptr_gemm fp8_gemm block_fp8_gemm fp8_attention
pointer_attention decode_attention extend_attention varlen_attention lightning_attention softcap_attention paged_prefill
gptq_gemm int4_gemm swiglu_gemm conv_implicit_gemm chunk_state vllm_fused_moe grouped_matmul unsloth_moe_grouped_gemm
vllm_unified_attention online_softmax tridao_ln_bwd mamba_chunk_scan_bwd_dx jagged_silu_attention scan_combine"
D=""; for l in $L; do D="$D $G/$l"; done
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 570 python bench/gluon_gpu.py $D --sizes 4096 --timeout 40 --no-baselines \
  --out $OUT/gpu155.json 2>&1 | tee $OUT/run155.log | grep -vi "warning"
