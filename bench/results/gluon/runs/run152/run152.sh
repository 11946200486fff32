#!/usr/bin/env bash
# Run 152 (session 60): loop runs of the committed kernels whose replay the warp-group replay changes most (each warp
# group its own thread, the SM's ALU and MUFU shared among them, events in time order), to tell which replay is right.
# Part a or b: `bash run152.sh a`.
set -u
G=bench/results/gluon
v() {   # label kernel-file
  PYTHONPATH=. timeout 110 python -m twill validate "$2" --arch h200 --schedule $G/$1 -o $OUT/validate-$1 --loops-only \
    2>&1 | tee -a $OUT/run152$PART.log | grep -E "per iteration|loop run|PASS|FAIL|error" | head -4
}
PART=${1:-a}
if [ "$PART" = a ]; then
  v amd_fa_dropout_alibi tests/corpus/amd_fa_dropout_alibi.py
  v fa2_triton_bwd tests/corpus/fa2_triton_bwd.py
  v mx_gemm tests/corpus/mx_gemm.py
  v fp8_attention tests/corpus/fp8_attention.py
  v i64_bounds_gemm tests/corpus/i64_bounds_gemm.py
  v rope_fused_attention tests/corpus/rope_fused_attention.py
else
  v square_attention-one-group tests/corpus/square_attention.py
  v square_attention tests/corpus/square_attention.py
  v fa3-lookahead kernels/fa3.py
  v flaggems_bmm tests/corpus/flaggems_bmm.py
  v gemm-two-groups kernels/gemm.py
fi
