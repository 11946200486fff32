#!/usr/bin/env bash
# Run 149 (session 59): the eight committed kernels whose re-solve with the compare / select typing (run 148) writes
# the same lines in another order within a stage, as committed now, against Triton's default.
set -u
G=bench/results/gluon
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 500 python bench/gluon_gpu.py $G/amd_fa_dropout_alibi $G/apex_ln_bwd_dgamma_partials $G/cumsum_rows $G/flagattn_piecewise $G/inductor_layer_norm $G/liger_gemma_add_rms_norm $G/token_quant_fp8 $G/welford_rows \
  --sizes 4096 --timeout 40 --out $OUT/gpu149.json 2>&1 | tee -a $OUT/run149.log | grep -v "^\s*$"
