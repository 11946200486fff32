#!/usr/bin/env bash
# Run 218 (e) (session 87, #17): the Triton route's GPU validate tests again, after the fix of the unrolled GEMM loop
# (a yield of a wait's first result, %acc_44#0, left unrenamed). On an H200, `run218.sh b` is a second call.
set -u
OUT=${OUT:-/tmp/run218e}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > "$OUT/gpu.txt"
PYTHONPATH=. timeout 420 python -m pytest -q tests/gpu/test_gpu_validate.py -k committed_schedule -s \
  > "$OUT/gpu-test-validate.log" 2>&1
bash bench/results/gluon/runs/device_tree.sh pack "$OUT"
