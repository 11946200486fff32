#!/usr/bin/env bash
# Run 133 on the GPU machine (session 54): two of the timed modules after bf5b9a3 (the timing leaves expanded tensor
# arguments alone), checked and timed as run 129 did.
set -u
G=bench/results/gluon
PYTHONPATH=. timeout 80 python bench/gluon_gpu.py $G/deepseek_fp8_gemm $G/flagattn_bwd_kv --sizes 4096 --timeout 35 \
  --no-baselines --out $OUT/gpu133.json 2>&1 | tee -a $OUT/run133.log
