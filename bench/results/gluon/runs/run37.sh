#!/usr/bin/env bash
# Run 37 on the GPU machine (session 35): four constructs of public kernels the Gluon back end now writes.
#   a: split_kv_reduce (vLLM / SGLang split-KV decode stage 2: pointer loads inside a runtime if in the loop),
#      chunk_output (flash-linear-attention's chunk_fwd_kernel_o: a wgmma after the loop), prefix_scores (a wgmma
#      before the loop), row_atomics (a float tl.atomic_max's unsigned half, tl.atomic_cas, tl.flip, .cg loads):
#      each checked (two seeds; SMALL and PROBLEM; NaN-poisoned) and timed against Triton's own compile of the file;
#      then their GPU tests.
set -u
G=bench/results/gluon
NEW="split_kv_reduce chunk_output prefix_scores row_atomics"
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run37a.log
for k in $NEW; do
  PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $G/$k --out $OUT/gpu37a-$k.json 2>&1 | tail -6 \
    | tee -a $OUT/run37a.log
done
PYTHONPATH=. timeout 300 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "$(echo $NEW | sed 's/ / or /g')" 2>&1 \
  | tail -6 | tee -a $OUT/run37a.log
