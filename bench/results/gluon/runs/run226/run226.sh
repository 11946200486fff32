#!/usr/bin/env bash
# Run 226 (session 92, #14): XunhaoLai's NSA top-k sparse attention forward (its boundary-checked block pointers
# advanced by a loaded block index had been refused as a cycle; session 92 folds the checks' masks into the load's
# node), never run; then, only on an H200, the Gluon FA backward validated with its region sums (#17).
set -u
OUT=${OUT:-/tmp/run226}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > "$OUT/gpu.txt"
export TRITON_CACHE_DIR=$(mktemp -d)
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 200 python bench/gluon_gpu.py bench/results/gluon/xunhao_nsa_topk_sparse_fwd \
  --sizes 4096 --timeout 60 --out $OUT/gpu226.json > $OUT/run226.log 2>&1
grep -vi warning $OUT/run226.log | tail -4
if grep -q H200 "$OUT/gpu.txt"; then
  PYTHONPATH=. timeout 150 python -m twill validate kernels/fa_bwd.py --arch h200 --schedule bench/results/gluon/fa_bwd \
    --sums auto -o "$OUT/validate-fa_bwd" > "$OUT/validate-fa_bwd.log" 2>&1
  tail -4 "$OUT/validate-fa_bwd.log"
fi
bash bench/results/gluon/runs/device_tree.sh pack "$OUT"
