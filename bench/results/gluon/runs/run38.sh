#!/usr/bin/env bash
# Run 38 on the GPU machine (session 35): a TMA store inside the scheduled loop; square-block pointer attention's rows
# split once Triton's CSE'd ranges and broadcasts are copied per reader.
#   a: tma_rows, square_attention (2 row sub-tiles), square_attention-one-group (--row-split 1: what twill wrote before):
#      each checked (two seeds; SMALL and PROBLEM; NaN-poisoned) and timed against Triton's own compile of the file;
#   b: the GPU tests of those and of the two committed kernels the copies changed (diagonal_mask_attention,
#      varlen_attention: a broadcast recomputed for the stores after the loop).
set -u
G=bench/results/gluon
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run38.log
for k in tma_rows square_attention square_attention-one-group; do
  PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $G/$k --sizes 4096,16384 --out $OUT/gpu38a-$k.json 2>&1 | tail -6 \
    | tee -a $OUT/run38.log
done
PYTHONPATH=. timeout 300 python -m pytest -q tests/gpu/test_gpu_gluon.py \
  -k "tma_rows or square_attention or diagonal_mask_attention or varlen_attention" 2>&1 | tail -6 | tee -a $OUT/run38.log
