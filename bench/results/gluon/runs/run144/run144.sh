#!/usr/bin/env bash
# Run 144 (session 58). a: the two kernels with stores before an early return (written in the kernel before its
# guards, once: triton_kernels' top-k router and the corpus's memset GEMM), first run on a GPU, each with Triton's
# default. b: the FA forward solved `--calibrated` with the calibration refitted on the replay's shared-memory port
# (I=261) against the committed `fa3-calibrated` (I=258), back to back.
set -u
G=bench/results/gluon
gpu() { TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 280 python bench/gluon_gpu.py "$@" --timeout 40 2>&1 \
          | tee -a $OUT/run144.log | grep -v "^\s*$"; }
gpu $G/memset_guarded_gemm $G/tk_topk_forward --sizes 4096 --out $OUT/gpu144a.json
gpu $G/fa3-calibrated $G/runs/run144/kernels/fa3-calibrated-port --no-baselines --sizes 4096 --out $OUT/gpu144b.json
