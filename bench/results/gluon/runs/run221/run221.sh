#!/usr/bin/env bash
# Run 221 (session 89, #14). `run221.sh a`: the kernels session 89 wrote, from bench/results/gluon/<stem>: a tile loop
# carrying scalars with code after it (Liger's group norm, FlashInfer's top-k renorm: refused before), a loop after a
# tile loop (channel_sum_then_pass), the loops before a tile loop written once (max_then_channel_nest,
# count_then_channel_nest: their max pass had run per channel), and the session's three sweeps (thirteen public
# kernels). `run221.sh b`, on an H200 only: run 218's (b), the Gluon FA backward and forward validated (#17).
set -u
OUT=${OUT:-/tmp/run221}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > "$OUT/gpu.txt"
export TRITON_CACHE_DIR=$(mktemp -d)
FIRST="liger_group_norm flashinfer_topk_renorm channel_sum_then_pass max_then_channel_nest count_then_channel_nest"
SWEEP="attorch_batch_norm_fwd kernl_attention_fwd sglang_decode_int4kv_reducev spargeattn_block_map_to_lut
lightllm_mla_decode_vsm_fp8 spargeattn_attn_fwd_causal deepspeed_fp_matmul_gelu deepspeed_matmul_4d_causal
attorch_conv2d_fwd lightllm_apply_penalty sglang_per_expert_lora_moe flashinfer_rms_norm_residual_fp8
vllm_sample_recovered_tokens"
if [ "${1:-a}" = d ]; then   # (d): on an H200, the Gluon FA backward validated with its sums (#17), then (c)
  if grep -q H200 "$OUT/gpu.txt"; then
    PYTHONPATH=. timeout 280 python -m twill validate kernels/fa_bwd.py --arch h200 --schedule bench/results/gluon/fa_bwd \
      --sums auto -o "$OUT/validate-fa_bwd" > "$OUT/validate-fa_bwd.log" 2>&1
    tail -5 "$OUT/validate-fa_bwd.log"
    bash bench/results/gluon/runs/device_tree.sh pack "$OUT"
    exit 0          # (the device time left this session: the validate alone)
  fi
  set -- c
fi
if [ "${1:-a}" = c ]; then   # (c): the four whose harness failed in (a) (reference / launch on the host), fixed
  DIRS="$(for s in sglang_decode_int4kv_reducev lightllm_mla_decode_vsm_fp8 deepspeed_matmul_4d_causal \
    sglang_per_expert_lora_moe; do echo bench/results/gluon/$s; done)"
  TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 180 python bench/gluon_gpu.py $DIRS --sizes 4096 --timeout 60 \
    --out $OUT/gpu221c.json > $OUT/run221c.log 2>&1
  grep -vi warning $OUT/run221c.log | tail -12
  bash bench/results/gluon/runs/device_tree.sh pack "$OUT"
  exit 0
fi
if [ "${1:-a}" = b ]; then
  bash bench/results/gluon/runs/run218/run218.sh b
  exit 0
fi
DIRS="$(for s in $FIRST $SWEEP; do [ -f bench/results/gluon/$s/kernel_gluon.py ] && echo bench/results/gluon/$s; done)"
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 500 python bench/gluon_gpu.py $DIRS --sizes 4096 --timeout 100 \
  --out $OUT/gpu221.json > $OUT/run221.log 2>&1
grep -vi warning $OUT/run221.log | tail -40
bash bench/results/gluon/runs/device_tree.sh pack "$OUT"
