#!/usr/bin/env bash
# Run 171 (session 64): the three corpus kernels this session added (xFormers-style bias + dropout + residual,
# a serial split-K with a volatile spin-wait, a chunked gated scan with cumprod / div_rn / fma), AMD's dropout
# attention as the integer cost table re-solved it beside its committed kernel from before (runs/run171/old), then
# loop runs (`twill validate --loops-only`) of the kernels whose predictions the table moved.
set -u
G=bench/results/gluon; R=$G/runs/run171
D="$G/xformers_bias_dropout_residual $G/streamk_serial_splitk_gemm $G/accelerated_scan_gated_chunks"
D="$D $G/amd_fa_dropout_alibi $R/old/amd_fa_dropout_alibi"
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 420 python bench/gluon_gpu.py $D --sizes 4096 --timeout 60 \
  --out $OUT/gpu171.json 2>&1 | tee $OUT/run171.log | grep -vi "warning"
v() {   # label kernel-file
  PYTHONPATH=. timeout 120 python -m twill validate "$2" --arch h200 --schedule $G/$1 -o $OUT/validate-$1 --loops-only \
    2>&1 | tee -a $OUT/run171-loops.log | grep -E "per iteration|loop run|PASS|FAIL|error" | head -6
}
v amd_fa_dropout_alibi tests/corpus/amd_fa_dropout_alibi.py
v dropout_rows tests/corpus/dropout_rows.py
v triton_kernels_mxfp4_upcast_gemm tests/corpus/triton_kernels_mxfp4_upcast_gemm.py
v xformers_bias_dropout_residual tests/corpus/xformers_bias_dropout_residual.py
