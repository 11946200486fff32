#!/usr/bin/env bash
# Run 54 on the GPU machine (session 38): two kernel classes the Gluon route refused before: Liger's 32-warp cross
# entropy (more warps than a CTA may specialise: now one partition of all 32) and block-sparse attention with the loop's
# dots inside `if` its block is kept (written as it runs, each wgmma retired at once). Each checked (two seeds, SMALL and
# PROBLEM, NaN-poisoned, launched twice) and timed against Triton's own compile of the same file; then their GPU tests.
set -u
G=bench/results/gluon
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run54.log
for v in liger_cross_entropy block_mask_attention; do
  PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $G/$v --out $OUT/gpu54-$v.json 2>&1 | tail -4 | tee -a $OUT/run54.log
done
PYTHONPATH=. timeout 120 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "liger_cross_entropy or block_mask_attention" \
  2>&1 | tail -3 | tee -a $OUT/run54.log
