#!/usr/bin/env bash
# Run 225 (session 92, #14 and #17). `run225.sh a`: the vLLM sweep's three kernels (the batch-invariant persistent
# linear, lightning attention's diagonal blocks, spec decode's softmax entropy) and run 224's two ports fixed after
# (Triton-distributed's GDN, its scratch zero-filled; its MoE row index, no host sync in the launch); then, only on an
# H200, the Gluon FA backward validated with its region sums (#17). `run225.sh b`: on an H200 only, the FA forward and
# GEMM validated.
set -u
OUT=${OUT:-/tmp/run225}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > "$OUT/gpu.txt"
export TRITON_CACHE_DIR=$(mktemp -d)
H200=$(grep -c H200 "$OUT/gpu.txt")
if [ "${1:-a}" = a ]; then
  DIRS="$(for s in vllm_bi_persistent_linear vllm_lightning_fwd_diag vllm_spec_softmax_entropy \
    tritondist_gdn_kkt_inv_ut_fused tritondist_moe_block_row_idx_info; do echo bench/results/gluon/$s; done)"
  TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 420 python bench/gluon_gpu.py $DIRS --sizes 4096 --timeout 60 \
    --out $OUT/gpu225a.json > $OUT/run225a.log 2>&1
  grep -vi warning $OUT/run225a.log | tail -22
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
