#!/usr/bin/env bash
# Run 77 (session 42): the flat (tile, k) loop's zeroed accumulator as the dot's use_acc flag, its wait inside the
# epilogue's branch. Inductor's persistent TMA template: the committed kernel (each dot retired before the branch)
# and the new one (probe/r77/ind_flag) in one process against one Triton baseline; Triton 3.1 tutorial 09's flat
# pointer GEMM (probe/r77/flat, new in the corpus) against its Triton baseline.
set -u
G=bench/results/gluon
PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $G/inductor_persistent_tma_mm probe/r77/ind_flag --sizes 16384 \
  --out $OUT/gpu77-ind.json 2>&1 | tail -6 | tee -a $OUT/run77.log
PYTHONPATH=. timeout 200 python bench/gluon_gpu.py probe/r77/flat --sizes 16384 --out $OUT/gpu77-flat.json \
  2>&1 | tail -6 | tee -a $OUT/run77.log
