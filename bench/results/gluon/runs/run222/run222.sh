#!/usr/bin/env bash
# Run 222 (session 91, #17 and #14). `run222.sh a`: the Gluon FA backward validated with its region sums (#17; on
# whichever card comes: the issue's figures are the H200's, the tool may lend an H100), then run 221 (c)'s four kernels
# whose harnesses failed (fixed) and Intel's batched GEMM whose descriptors the kernel makes (session 90, never run).
# `run222.sh b`: the Gluon FA forward and GEMM validated with their sums. `run222.sh c`: six committed kernels against
# the same kernels solved with loads masked by the loop's index alone streaming (`runs/run222/new/`, session 91).
set -u
OUT=${OUT:-/tmp/run222}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > "$OUT/gpu.txt"
export TRITON_CACHE_DIR=$(mktemp -d)
if [ "${1:-a}" = a ]; then
  PYTHONPATH=. timeout 290 python -m twill validate kernels/fa_bwd.py --arch h200 --schedule bench/results/gluon/fa_bwd \
    --sums auto -o "$OUT/validate-fa_bwd" > "$OUT/validate-fa_bwd.log" 2>&1
  tail -4 "$OUT/validate-fa_bwd.log"
  DIRS="$(for s in sglang_decode_int4kv_reducev lightllm_mla_decode_vsm_fp8 deepspeed_matmul_4d_causal \
    sglang_per_expert_lora_moe intel_gemm_preop_exp_desc; do echo bench/results/gluon/$s; done)"
  TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 230 python bench/gluon_gpu.py $DIRS --sizes 4096 --timeout 60 \
    --out $OUT/gpu222a.json > $OUT/run222a.log 2>&1
  grep -vi warning $OUT/run222a.log | tail -14
elif [ "$1" = c ]; then
  NEW="awq_gemm fused_moe_decode i64_bounds_gemm fla_fused_chunk_retention fla_wy_repr_bwd sglang_w8a8_block_int8_gemm"
  DIRS="$(for s in $NEW; do echo bench/results/gluon/$s bench/results/gluon/runs/run222/new/$s; done)"
  TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 400 python bench/gluon_gpu.py $DIRS --sizes 4096 --timeout 60 \
    --out $OUT/gpu222c.json > $OUT/run222c.log 2>&1
  grep -vi warning $OUT/run222c.log | tail -16
else
  for k in fa3 gemm; do
    PYTHONPATH=. timeout 300 python -m twill validate kernels/$k.py --arch h200 --schedule bench/results/gluon/$k \
      --sums auto -o "$OUT/validate-$k" > "$OUT/validate-$k.log" 2>&1
    tail -4 "$OUT/validate-$k.log"
  done
fi
bash bench/results/gluon/runs/device_tree.sh pack "$OUT"
