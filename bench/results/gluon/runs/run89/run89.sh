#!/usr/bin/env bash
# Run 89 on the GPU machine (session 45): one-partition kernels whose wgmma tiles are now copied by their own warps
# with cp.async straight into the wgmma's buffers, up to 3 iterations ahead (was: loaded a stage ahead in registers and
# stored to shared memory each iteration), against the kernels committed before (runs/run89/old/*, label *_old), each
# against Triton's best config of its file. Part "new": the five regenerated variants, and tutorial 06's backward with
# its copies through registers (TWILL_COPY_OFF=1: a launch too little aligned for cp.async); part "old": the old kernels.
set -u
part=${1:-new}
run() { PYTHONPATH=. timeout 200 python bench/gluon_gpu.py "$@" 2>&1 | tail -4 | tee -a $OUT/run89-$part.log; }
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run89-$part.log
for v in tut06_attn_bwd mamba_chunk_state mamba_bmm_chunk fla_chunk_o chunk_output; do
  if [ "$part" = new ]; then
    run bench/results/gluon/$v --sizes 16384 --out $OUT/gpu89-$v.json
  else
    run bench/results/gluon/runs/run89/old/$v --sizes 16384 --out $OUT/gpu89-${v}_old.json
  fi
done
if [ "$part" = new ]; then
  TWILL_COPY_OFF=1 run bench/results/gluon/tut06_attn_bwd --sizes 16384 --out $OUT/gpu89-tut06_attn_bwd-copyoff.json
fi
