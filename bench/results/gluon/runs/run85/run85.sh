#!/usr/bin/env bash
# Run 85 (session 43): six kernels of this session's later sweeps, first run on the GPU (FlashInfer's variable-length
# merge of attention states, FlagGems' bmm, Kernl's linear + GELU, tutorial 06's attention backward, Mamba-2's db
# backward whose autotune config zeroes ddA_cumsum before each launch, Liger's DyT backward), each against Triton's
# best of its file.
set -u
run() { PYTHONPATH=. timeout 100 python bench/gluon_gpu.py "$@" 2>&1 | tail -5 | tee -a $OUT/run85.log; }
for v in mamba_chunk_state_bwd_db flaggems_bmm kernl_linear_gelu tut06_attn_bwd liger_dyt_bwd flashinfer_varlen_merge_states; do
  if [ $SECONDS -gt 480 ]; then echo "$v: not run (past 480 s)" | tee -a $OUT/run85.log; continue; fi
  run probe/r85/$v --sizes 16384 --out $OUT/gpu85-$v.json
done
