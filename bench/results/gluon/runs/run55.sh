#!/usr/bin/env bash
# Run 55 on the GPU machine (session 38): liger_cross_entropy held to one stage (its tiles fill the register file at
# 32 warps: run 54b's three-stage kernel spilled 648 registers and ran x0.45), and mx_gemm regenerated with the loop as
# written for launches shorter than its pipeline's prologue (a wgmma the one-partition writer now writes, issued and
# retired at once): its GPU test, its time, and one- and two-trip problems (K = 128, 256) the pipelined loop alone
# could not run.
set -u
G=bench/results/gluon
R=$G/runs
for v in liger_cross_entropy mx_gemm; do
  PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $G/$v --out $OUT/gpu55-$v.json 2>&1 | tail -4 | tee -a $OUT/run55.log
done
PYTHONPATH=. timeout 120 python $R/run55_short.py mx_gemm '{"M": 256, "N": 384, "K": 128}' '{"M": 384, "N": 256, "K": 256}' \
  2>&1 | tail -5 | tee -a $OUT/run55.log
PYTHONPATH=. timeout 150 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "liger_cross_entropy or mx_gemm" 2>&1 | tail -3 \
  | tee -a $OUT/run55.log
