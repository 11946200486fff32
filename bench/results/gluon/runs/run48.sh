#!/usr/bin/env bash
# Run 48 on the GPU machine (session 37): the two committed kernels whose loads or stores name a cache modifier or an
# eviction policy, which the Gluon back end now writes (Inductor's softmax: evict_last on the first pass, evict_first on
# the second; row_atomics: .cg, its evict_first dropped as ptxas refuses the pair): each checked (two seeds,
# NaN-poisoned) and timed against Triton's best configuration and the kernel committed before (runs/run48/before/).
set -u
G=bench/results/gluon
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run48.log
for v in inductor_softmax row_atomics; do
  PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $G/runs/run48/before/$v $G/$v --out $OUT/gpu48-$v.json 2>&1 \
    | tail -4 | tee -a $OUT/run48.log
done
PYTHONPATH=. timeout 200 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "inductor_softmax or row_atomics" 2>&1 \
  | tail -3 | tee -a $OUT/run48.log
