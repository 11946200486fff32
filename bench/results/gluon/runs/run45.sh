#!/usr/bin/env bash
# Run 45 on the GPU machine (session 36): the eleven committed kernels whose schedules changed when a division and a
# libdevice function were priced at their expansions (run 44c): each re-solved, checked (two seeds, NaN-poisoned) and
# timed against Triton's best configuration of the same file and against the kernel committed before (runs/run45/before/,
# the schedule solved with the old costs); then their GPU tests.
set -u
G=bench/results/gluon
V="cross_entropy dropout_rows geglu_rows group_quant_fp8 inductor_softmax online_softmax softcap_attention softmax_rows
tma_rows token_quant_fp8 welford_rows"
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run45.log
for v in $V; do
  PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $G/runs/run45/before/$v $G/$v --out $OUT/gpu45-$v.json 2>&1 \
    | tail -4 | tee -a $OUT/run45.log
done
PYTHONPATH=. timeout 300 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "$(echo $V | sed 's/ / or /g')" 2>&1 \
  | tail -3 | tee -a $OUT/run45.log
