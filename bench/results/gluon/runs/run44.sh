#!/usr/bin/env bash
# Run 44 on the GPU machine (session 36): where the time of the two slowest new kernels goes. `twill validate` on the
# committed Gluon kernels of w4a16_gemm (x0.76 Triton in run 43) and softcap_attention (x0.84): every region of every
# partition measured with Proton (subsets of regions per run, combined), against the schedule's prediction.
set -u
G=bench/results/gluon
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run44.log
if [ "${1:-}" = b ]; then     # 44b: w4a16_gemm with its scale in the readers' layout, timed; softcap validated
  PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $G/w4a16_gemm --out $OUT/gpu44b-w4a16_gemm.json 2>&1 | tail -3 \
    | tee -a $OUT/run44b.log
  PYTHONPATH=. timeout 200 python -m pytest -q tests/gpu/test_gpu_gluon.py -k w4a16_gemm 2>&1 | tail -2 \
    | tee -a $OUT/run44b.log
  set -- softcap_attention
fi
for v in ${@:-w4a16_gemm softcap_attention}; do
  f=$(python -c "import json; print(json.load(open('$G/$v/variant.json'))['kernel_file'])")
  PYTHONPATH=. timeout 280 python -m twill.cli validate $f --arch h200 --schedule $G/$v -o $OUT/val44-$v --budget 120 \
    2>&1 | tail -25 | tee -a $OUT/run44.log
done
