#!/usr/bin/env bash
# Run 226 (sessions 92-93, #14 and #17). `run226.sh a`: XunhaoLai's NSA top-k sparse attention forward (its
# boundary-checked block pointers advanced by a loaded block index had been refused as a cycle; session 92 folds the
# checks' masks into the load's node), never run; three ports whose checks had run Triton's kernel (their SMALL sizes
# changed constexprs; session 93 keeps them): xLSTM's recurrent dC, Triton-distributed's GDN and MoE row index; then,
# only on an H200, the Gluon FA backward validated with its region sums (#17). `run226.sh b`: on an H200 only, the FA
# forward and GEMM validated. Session 94 adds SGLang's int4 KV decode (written from its layouts as specialised, the
# one-stage kernel timed beside the pipelined one at launch) and Liger's fused MoE up-projection (its two
# accumulators now in one consumer: no kernel before), and scattermoe's scatter2scatter (its expert weights now by
# TMA: int64 coordinates along an unmasked dimension, the launch checking the tensor's span fits int32).
set -u
OUT=${OUT:-/tmp/run226}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > "$OUT/gpu.txt"
export TRITON_CACHE_DIR=$(mktemp -d)
H200=$(grep -c H200 "$OUT/gpu.txt")
if [ "${1:-a}" = a ]; then
  DIRS="$(for s in xunhao_nsa_topk_sparse_fwd mlstm_xl_chunk_bw_recurrent_dC tritondist_gdn_kkt_inv_ut_fused \
    tritondist_moe_block_row_idx_info sglang_decode_int4kv_reducev liger_moe_up_proj_swiglu scattermoe_scatter2scatter; do echo bench/results/gluon/$s; done)"
  TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 420 python bench/gluon_gpu.py $DIRS --sizes 4096 --timeout 60 \
    --out $OUT/gpu226a.json > $OUT/run226a.log 2>&1
  grep -vi warning $OUT/run226a.log | tail -18
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
