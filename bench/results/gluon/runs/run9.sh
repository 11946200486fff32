#!/usr/bin/env bash
# Run 9 on the GPU machine (session 9): the persistent kernels' cross-tile handoff (the producer loads each tile's
# Q / K,V tiles, the next tile's during this one's epilogue; stores in buffers of their own waited for only before the
# next tile's store) A/B against the same schedules as generated before it (runs/run9/*-before: the kernels of
# HEAD b7da2ec), head to head with cuDNN / cuBLAS and Triton's default in one process, interleaved round by round
# (bench/gluon_vs.py); then the GPU Gluon tests (every committed variant checked against its reference, NaN-poisoned
# outputs, two seeds). fa3-no-tc-order (no turn barriers) and fa3-not-persistent ride along in the FA forward's rounds.
set -u
G=bench/results/gluon
R=$G/runs/run9
PYTHONPATH=. timeout 240 python bench/gluon_vs.py $G/fa3 $R/fa3-before $G/fa3-no-tc-order $G/fa3-not-persistent --rounds 7 --out $OUT/vs-fa3.json 2>&1 | tee $OUT/run9.log
PYTHONPATH=. timeout 90 python bench/gluon_vs.py $G/gemm $R/gemm-before --rounds 9 --out $OUT/vs-gemm.json 2>&1 | tee -a $OUT/run9.log
PYTHONPATH=. timeout 120 python bench/gluon_vs.py $G/fa_bwd $R/fa_bwd-before --rounds 5 --sizes 4096,16384 \
  --out $OUT/vs-fa_bwd.json 2>&1 | tee -a $OUT/run9.log
PYTHONPATH=. timeout 200 python -m pytest -q tests/gpu/test_gpu_gluon.py 2>&1 | tail -5 | tee -a $OUT/run9.log
