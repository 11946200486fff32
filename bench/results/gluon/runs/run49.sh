#!/usr/bin/env bash
# Run 49 on the GPU machine (session 37): i64_bounds_gemm checked and timed; then `twill validate` (every region of
# every partition measured with Proton, against the schedule's prediction) on three of this session's kernels whose
# shapes the profiler had not met: mx_gemm (one partition copying its own tiles with cp.async), conv_implicit_gemm
# (nine sibling loops in one kernel) and lora_shrink (an early return, atomics after the loop).
set -u
G=bench/results/gluon
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run49.log
PYTHONPATH=. timeout 120 python bench/gluon_gpu.py $G/i64_bounds_gemm --out $OUT/gpu49-i64_bounds_gemm.json 2>&1 \
  | tail -3 | tee -a $OUT/run49.log
PYTHONPATH=. timeout 100 python -m pytest -q tests/gpu/test_gpu_gluon.py -k i64_bounds_gemm 2>&1 | tail -2 \
  | tee -a $OUT/run49.log
for v in ${@:-mx_gemm conv_implicit_gemm lora_shrink}; do
  f=$(python -c "import json; print(json.load(open('$G/$v/variant.json'))['kernel_file'])")
  PYTHONPATH=. timeout 150 python -m twill.cli validate $f --arch h200 --schedule $G/$v -o $OUT/val49-$v --budget 90 \
    2>&1 | tail -25 | tee -a $OUT/run49.log
done
