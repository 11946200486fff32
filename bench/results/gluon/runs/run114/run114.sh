#!/usr/bin/env bash
# Run 114 on the GPU machine (session 51): ring releases by one arrive per warp (lane 0 of each warp, after its own
# wgmma wait) instead of the partition barrier Triton 3.6's membar puts before thread 0's arrive, by hand on the
# committed GEMM and FA forward through a PTX pass (runs/run114/warparrive.py, mk114.py); "-waits" also drops the
# barrier before each mbarrier wait in a loop with no generic shared-memory access. (a) correctness and Triton's best,
# (b) head to head with cuBLAS / cuDNN in rounds.
set -u
G=bench/results/gluon
R=$G/runs/run114
export TRITON_CACHE_DIR=$(mktemp -d)
PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $G/gemm $R/gemm-warparrive $R/gemm-warparrive-waits \
  --out $OUT/gpu114-gemm.json 2>&1 | tee -a $OUT/run114.log
PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $G/fa3 $R/fa3-warparrive $R/fa3-warparrive-waits --sizes 4096 \
  --out $OUT/gpu114-fa3.json 2>&1 | tee -a $OUT/run114.log
PYTHONPATH=. timeout 120 python bench/gluon_vs.py $G/gemm $R/gemm-warparrive $R/gemm-warparrive-waits --rounds 9 \
  --out $OUT/vs114-gemm.json 2>&1 | tee -a $OUT/run114.log
PYTHONPATH=. timeout 200 python bench/gluon_vs.py $G/fa3 $R/fa3-warparrive $R/fa3-warparrive-waits --rounds 7 \
  --sizes 4096,16384 --out $OUT/vs114-fa3.json 2>&1 | tee -a $OUT/run114.log
