#!/usr/bin/env bash
# Run 62 on the GPU machine (session 39): tutorial 08's grouped GEMM (run 61: x0.72) regenerated without two CTAs
# per SM (a kernel with its own loop over tiles launches about one program per SM; run 61's kernel halved its
# register limit to 128 for a second CTA that had no tile to run). Checked and timed as in run 61, then its GPU test.
set -u
G=bench/results/gluon
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run62.log
PYTHONPATH=. timeout 120 python bench/gluon_gpu.py $G/grouped_matmul --out $OUT/gpu62-grouped_matmul.json 2>&1 \
  | tail -2 | tee -a $OUT/run62.log
PYTHONPATH=. timeout 150 python -m pytest -q -p no:cacheprovider tests/gpu/test_gpu_gluon.py \
  -k "grouped_matmul or grouped_gemm or persistent_gemm or tut09" 2>&1 | tail -3 | tee -a $OUT/run62.log
