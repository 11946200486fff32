#!/usr/bin/env bash
# Run 57 on the GPU machine (session 38): two more Liger-Kernel losses (found by a sweep of public kernel styles,
# offline): the generalised JSD at 32 warps (its ignored row's zeroing loop had shared SSA names with the scheduled
# loop, and the store took the other loop's layout: the kernel did not compile) and the KL divergence, a 16384-wide fp32
# row at 16 warps (no schedule with the loop's ops in 4-warp groups: solved again as its one 16-warp partition); each
# checked and timed against Triton's compile of the same file; then their GPU tests and those of the two cross-entropy
# kernels regenerated with their early return's names made distinct (a rename only).
set -u
G=bench/results/gluon
for v in liger_jsd liger_kldiv; do
  PYTHONPATH=. timeout 170 python bench/gluon_gpu.py $G/$v --out $OUT/gpu57-$v.json 2>&1 | tail -4 | tee -a $OUT/run57.log
done
PYTHONPATH=. timeout 200 python -m pytest -q tests/gpu/test_gpu_gluon.py \
  -k "liger_jsd or liger_kldiv or cross_entropy" 2>&1 | tail -3 | tee -a $OUT/run57.log
