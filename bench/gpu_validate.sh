#!/usr/bin/env bash
# GPU machine: `twill validate` on the committed H200 schedules (GEMM, FA forward); writes under $OUT.
set -u
OUT=${OUT:-gpu-validate-out}
export PYTHONPATH=${PYTHONPATH:-.}
for k in gemm fa3; do
  echo "== twill validate kernels/$k.py --arch h200 --schedule bench/results/schedules/$k-h200"
  python3 -m twill.cli validate kernels/$k.py --arch h200 --schedule bench/results/schedules/$k-h200 -o "$OUT/validate-$k-h200"
  rm -f "$OUT/validate-$k-h200/profile/trace.chrome_trace"
done
