#!/usr/bin/env bash
# Run 87 on the GPU machine (session 44): (a) tutorial 06's backward, the kernel run 85 generated against the one
# that keeps the loops' shared buffers alive until their last wgmma retires (probe/r87/race.py, eight seeds);
# (b) the new committed variant tut06_attn_bwd through bench/gluon_gpu.py (checks and time against Triton's best) and
# its GPU test; (c) the new variant fa2_triton_bwd (FA2 backward, Tri Dao style). The other 154 committed kernels compile to the same SASS as before the change: not run again.
set -u
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run87.log
PYTHONPATH=. timeout 200 python probe/r87/race.py 2>&1 | tail -20 | tee -a $OUT/run87.log
PYTHONPATH=. timeout 150 python bench/gluon_gpu.py bench/results/gluon/tut06_attn_bwd --sizes 16384 \
  --out $OUT/gpu87-tut06_attn_bwd.json 2>&1 | tail -5 | tee -a $OUT/run87.log
PYTHONPATH=. timeout 150 python -m pytest -q -p no:cacheprovider \
  "tests/gpu/test_gpu_gluon.py::test_generated_kernel_is_correct_and_finishes[tut06_attn_bwd]" 2>&1 | tail -3 \
  | tee -a $OUT/run87.log
PYTHONPATH=. timeout 150 python bench/gluon_gpu.py bench/results/gluon/fa2_triton_bwd --sizes 16384 \
  --out $OUT/gpu87-fa2_triton_bwd.json 2>&1 | tail -5 | tee -a $OUT/run87.log
