#!/usr/bin/env bash
# Run 223 (session 92, #14 and #17). `run223.sh a`: SGLang's int4 KV decode again (run 222: wrong, fixed in session
# 91), DeepSpeed's 4-D causal matmul (its harness failed twice: fixed), sparse24's int16 shifts (now written read
# signed: the same bits) and session 91's six new corpus kernels, never run; then, only on an H200, the Gluon FA
# backward validated with its region sums (#17 asks for the H200's figures). `run223.sh b`: on an H200 only, the
# Gluon FA forward and GEMM validated with their sums.
set -u
OUT=${OUT:-/tmp/run223}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > "$OUT/gpu.txt"
export TRITON_CACHE_DIR=$(mktemp -d)
H200=$(grep -c H200 "$OUT/gpu.txt")
if [ "${1:-a}" = a ]; then
  DIRS="$(for s in sglang_decode_int4kv_reducev deepspeed_matmul_4d_causal sparse24_meta_gemm fastvideo_fused_topk_mask \
    fastvideo_vsa_block_sparse_fwd fastvideo_vsa_block_sparse_bwd appliedai_causal_conv1d_fwd rtp_llm_bf16_gate_gemm \
    lmdeploy_fused_lora; do echo bench/results/gluon/$s; done)"
  TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 420 python bench/gluon_gpu.py $DIRS --sizes 4096 --timeout 60 \
    --out $OUT/gpu223a.json > $OUT/run223a.log 2>&1
  grep -vi warning $OUT/run223a.log | tail -22
  if [ "$H200" -gt 0 ]; then
    PYTHONPATH=. timeout 150 python -m twill validate kernels/fa_bwd.py --arch h200 --schedule bench/results/gluon/fa_bwd \
      --sums auto -o "$OUT/validate-fa_bwd" > "$OUT/validate-fa_bwd.log" 2>&1
    tail -4 "$OUT/validate-fa_bwd.log"
  fi
elif [ "$H200" -gt 0 ]; then
  for k in fa3 gemm; do
    PYTHONPATH=. timeout 280 python -m twill validate kernels/$k.py --arch h200 --schedule bench/results/gluon/$k \
      --sums auto -o "$OUT/validate-$k" > "$OUT/validate-$k.log" 2>&1
    tail -4 "$OUT/validate-$k.log"
  done
fi
bash bench/results/gluon/runs/device_tree.sh pack "$OUT"
