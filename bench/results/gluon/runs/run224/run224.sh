#!/usr/bin/env bash
# Run 224 (session 92, #14 and #17). `run224.sh a`: run 223's kernels whose harness failed (FastVideo's block-sparse
# attention forward and backward: a dense reference, out of memory; applied-ai's conv1d baseline: an autotune config
# colliding with positional strides) and session 92's sweep kernels never run (verl's entropy backward and forward,
# xLSTM's recurrent dC, Triton-distributed's GDN and MoE row index); then, only on an H200, the Gluon FA backward
# validated with its region sums (#17). `run224.sh b`: on an H200 only, the FA forward and GEMM validated.
set -u
OUT=${OUT:-/tmp/run224}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > "$OUT/gpu.txt"
export TRITON_CACHE_DIR=$(mktemp -d)
H200=$(grep -c H200 "$OUT/gpu.txt")
if [ "${1:-a}" = a ]; then
  DIRS="$(for s in fastvideo_vsa_block_sparse_fwd fastvideo_vsa_block_sparse_bwd appliedai_causal_conv1d_fwd \
    verl_entropy_bwd_fused_mn verl_entropy_fwd_mainloop mlstm_xl_chunk_bw_recurrent_dC tritondist_gdn_kkt_inv_ut_fused \
    tritondist_moe_block_row_idx_info; do echo bench/results/gluon/$s; done)"
  TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 420 python bench/gluon_gpu.py $DIRS --sizes 4096 --timeout 60 \
    --out $OUT/gpu224a.json > $OUT/run224a.log 2>&1
  grep -vi warning $OUT/run224a.log | tail -22
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
