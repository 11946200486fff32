#!/usr/bin/env bash
# Run 219 (session 87, #14): the fifteen kernels session 87's sweeps wrote or fixed (ported from sglang, vLLM, FlagGems,
# FLA, mamba, NSA, torchao, DeepSpeed, Liger; the KV-slot writer whose i32 loop had typed its i64 loops' trip count; a
# loop before the kernel's own tile loop), none run on a GPU before, each checked against its reference (two seeds,
# NaN-poisoned outputs) and timed against Triton's default at its PROBLEM.
set -u
OUT=${OUT:-/tmp/run219}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > "$OUT/gpu.txt"
G=bench/results/gluon
export TRITON_CACHE_DIR=$(mktemp -d)
L="sglang_moe_router_large_bs sglang_ep_pre_reorder sglang_write_req_to_token_pool vllm_min_p flaggems_addmv
 flaggems_layernorm_wb_bwd fla_chunk_bwd_dv mamba_chunk_scan_bwd_ddacs_stable nsa_compression_fwd
 torchao_fp8_jagged_rowwise_scales sglang_fp8_group_quant_moe_mn_major deepspeed_layer_norm_residual
 flaggems_var_mean_welford liger_sparsemax_bwd max_then_channel_nest"
DIRS=$(for k in $L; do echo $G/$k; done)
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 560 python bench/gluon_gpu.py $DIRS --sizes 4096 --timeout 120 \
  --out $OUT/gpu219.json > $OUT/run219.log 2>&1
grep -vi warning $OUT/run219.log | tail -40
bash bench/results/gluon/runs/device_tree.sh pack "$OUT"
