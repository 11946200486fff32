#!/usr/bin/env bash
# Run 148 (session 59). typed: the five committed kernels whose re-solve changes structurally once the TTGIR reader
# types a compare's result i1 and a select's as its values (not the condition's i1), the re-solved kernels against
# Triton's default and the committed kernels beside them in the same run. fwd: the FA forward's loop run with a
# PC-sampling stall capture (`--loops-only --stalls`): what its consumers do in the ~300 cycles an iteration the
# replay does not price (run 143: loop run 2484.4, replay 2182).
# The re-solved kernels ran from runs/run148/kernels/<label> (labels <label>-typed); they are the committed
# bench/results/gluon/<label> kernels since the commit that adds this run (byte for byte), so that copy was removed.
set -u
G=bench/results/gluon
K=$G/runs/run148/kernels
L="dot_scaled_fp8_desc gr_hstu_ragged_relbias inductor_nll_loss_red minference_vertical_slash sfast_group_norm_stats"
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 280 python bench/gluon_gpu.py $(for l in $L; do echo $K/$l; done) \
  --sizes 4096 --timeout 40 --out $OUT/gpu148typed.json 2>&1 | tee -a $OUT/run148.log | grep -v "^\s*$"
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $(for l in $L; do echo $G/$l; done) \
  --sizes 4096 --timeout 40 --no-baselines --out $OUT/gpu148committed.json 2>&1 | tee -a $OUT/run148.log | grep -v "^\s*$"
PYTHONPATH=. timeout 160 python -m twill validate kernels/fa3.py --arch h200 --schedule $G/fa3 -o $OUT/validate-fa3 \
  --loops-only --stalls 2>&1 | tee -a $OUT/run148.log | grep -v "^\s*$"
