#!/usr/bin/env bash
# Run 134 on the GPU machine (session 55). GPU tests (in parallel: each its own process) of the kernels this session
# changed or added: FLA's WY backward (each loop's buffers allocated before it: 65,536 bytes, 2 CTAs an SM, not 1),
# vLLM's prefix prefill (allocation moved), FLA's global cumsum (its FMA operand loaded in the loop: 255 registers,
# none spilled in the loop, against 32 and 5518 spill instructions), and the sweeps' seven other new kernels. Then
# against Triton's default at each PROBLEM, serially: the WY backward and the cumsum before (runs/run134/before/)
# and now; FlagGems' peeled mm as committed and with its A tile copied by cp.async (runs/run134/kernels/).
set -u
G=bench/results/gluon
R=$G/runs/run134
K="fla_wy_repr_bwd or vllm_prefix_prefill or fla_chunk_global_cumsum or vllm_fused_moe_gptq_awq"
K="$K or triton_kernels_mxfp4_matmul or fla_fused_recurrent_dplr or fla_rwkv6_intra_sub_intra"
K="$K or gr_hstu_ragged_relbias or flashinfer_sampling_from_probs or amd_fa_dropout_alibi"
PYTHONPATH=. timeout 80 python -m pytest -q -p no:cacheprovider -n 10 tests/gpu/test_gpu_gluon.py -k "$K" 2>&1 \
  | tail -8 | tee -a $OUT/run134.log
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 100 python bench/gluon_gpu.py $R/before/fla_wy_repr_bwd $G/fla_wy_repr_bwd \
  $R/before/fla_chunk_global_cumsum $G/fla_chunk_global_cumsum \
  $G/flaggems_mm_peeled $R/kernels/flaggems_mm_peeled_async $R/kernels/flaggems_mm_peeled_own_async \
  --sizes 4096 --timeout 20 --out $OUT/gpu134.json 2>&1 | tee -a $OUT/run134.log
