#!/usr/bin/env bash
# Run 11 on the GPU machine (session 10), in two calls:
#   a: the row reductions written as trees (codegen/gluon/ops.py reduce: the max and sum chains of 31 dependent
#      FMNMX / FADD per row become 5-level trees, SASS chain 33 -> 7, same instructions) A/B against the same
#      schedules with Triton's chains (runs/run11/*-chain: the kernels of HEAD 108886e, fa3-chain the code measured
#      in run 9), head to head with cuDNN and Triton's default, interleaved round by round (bench/gluon_vs.py);
#   b: the per-partition Proton profile of the default FA forward (no turn barriers, trees) and the GEMM (the
#      measured period against the prediction, data for the calibrated model), then the GPU Gluon tests.
set -u
G=bench/results/gluon
R=$G/runs/run11
case "${1:-a}" in
a)
  PYTHONPATH=. timeout 300 python bench/gluon_vs.py $G/fa3 $R/fa3-chain --rounds 7 --out $OUT/vs-fa3.json 2>&1 | tee $OUT/run11a.log
  PYTHONPATH=. timeout 200 python bench/gluon_vs.py $G/fa_bwd $R/fa_bwd-chain --rounds 5 --sizes 4096,16384 \
    --out $OUT/vs-fa_bwd.json 2>&1 | tee -a $OUT/run11a.log
  ;;
b)
  PYTHONPATH=. timeout 330 python bench/gluon_profile.py $G/fa3 $G/gemm --per-run 2 --budget 110 --timeout 270 \
    --out $OUT/profile 2>&1 | tee $OUT/run11b.log
  PYTHONPATH=. timeout 240 python -m pytest -q tests/gpu/test_gpu_gluon.py 2>&1 | tail -5 | tee -a $OUT/run11b.log
  ;;
esac
