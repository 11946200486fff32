#!/usr/bin/env bash
# Run 90 on the GPU machine (session 45): how far ahead a short loop's own wgmma tiles should be copied. Mamba's bmm
# (4 iterations a CTA) and chunk state (8) with their tiles copied 1, 2 and 3 (committed) iterations ahead, and as
# committed before run 89 (runs/run89/old: no prefetch), each against Triton's best config of its file.
set -u
run() { PYTHONPATH=. timeout 150 python bench/gluon_gpu.py "$@" 2>&1 | grep -v "^baseline" | tail -3 | tee -a $OUT/run90.log; }
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run90.log
for v in mamba_bmm_chunk mamba_chunk_state; do
  for d in bench/results/gluon/runs/run89/old/$v bench/results/gluon/runs/run90/${v}_pf1 \
           bench/results/gluon/runs/run90/${v}_pf2 bench/results/gluon/$v; do
    run $d --sizes 16384 --out $OUT/gpu90-$(basename $d)-$(basename $(dirname $d)).json
  done
done
