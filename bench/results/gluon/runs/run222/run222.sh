#!/usr/bin/env bash
# Run 222 (session 91, #17 and #14). `run222.sh a`: the Gluon FA backward validated with its region sums (#17; on
# whichever card comes: the issue's figures are the H200's, the tool may lend an H100), then run 221 (c)'s four kernels
# whose harnesses failed (fixed) and Intel's batched GEMM whose descriptors the kernel makes (session 90, never run).
# `run222.sh b`: the Gluon FA forward and GEMM validated with their sums.
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
else
  for k in fa3 gemm; do
    PYTHONPATH=. timeout 300 python -m twill validate kernels/$k.py --arch h200 --schedule bench/results/gluon/$k \
      --sums auto -o "$OUT/validate-$k" > "$OUT/validate-$k.log" 2>&1
    tail -4 "$OUT/validate-$k.log"
  done
fi
bash bench/results/gluon/runs/device_tree.sh pack "$OUT"
