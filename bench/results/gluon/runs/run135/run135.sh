#!/usr/bin/env bash
# Run 135 (written in session 55, for the next session's device time): the GPU tests of the kernels session 55 added
# or changed that no GPU has run yet, each in its own process, in parallel (-n 10); pytest's whole output kept. Then,
# serially, each against Triton's default at its PROBLEM (the baselines run 134's limit cut): FLA's global cumsum,
# FlagGems' peeled mm with its A tile copied by cp.async in one partition, and the new kernels.
set -u
G=bench/results/gluon
R=$G/runs/run134
NEW="fused_adamw_gridstride apex_ln_bwd_dgamma_partials inductor_nll_loss_red flaggems_argmax_dim
sfast_group_norm_stats lamb_stage1_gridstride nf4_lut_gather_gemm dot_scaled_fp8_desc fp8_weight_asm_pack4_gemm
moe_expert_histogram rope_fused_attention splitk_release_last_cta"
FIXED="fla_rwkv6_intra_sub_intra vllm_fused_moe_gptq_awq dropout_rows"
K=$(echo $NEW $FIXED | sed 's/ / or /g')
PYTHONPATH=. timeout 240 python -m pytest -q -p no:cacheprovider -n 10 tests/gpu/test_gpu_gluon.py -k "$K" \
  > $OUT/run135-tests.log 2>&1
tail -20 $OUT/run135-tests.log
DIRS=""
for k in fla_chunk_global_cumsum $FIXED $NEW; do DIRS="$DIRS $G/$k"; done
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 420 python bench/gluon_gpu.py $R/kernels/flaggems_mm_peeled_own_async $DIRS \
  --sizes 4096 --timeout 40 --out $OUT/gpu135.json 2>&1 | tee $OUT/run135.log | grep -v "^\s*$"
