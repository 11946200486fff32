#!/usr/bin/env bash
# Run 107 on the GPU machine (session 50): FlashAttention-3's split of dQ along the head dimension across the FA
# backward's two consumers, by hand on the committed kernel (runs/run107/mk107.py), with and without P^T kept in
# registers for dV; each against the committed kernel and Triton's best configuration, same process.
set -u
G=bench/results/gluon
R=$G/runs/run107
PYTHONPATH=. timeout 420 python bench/gluon_gpu.py $G/fa_bwd $R/fa_bwd-split $R/fa_bwd-split-preg --sizes 4096,16384 \
  --out $OUT/gpu107.json 2>&1 | tee -a $OUT/run107.log
