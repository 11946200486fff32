#!/usr/bin/env bash
# GPU machine: `twill profile` on FA forward and the GEMM (Triton's schedule and twill's), then FA again
# with the buffer the overflow warning suggests. Writes under $OUT (or ./gpu-profile-out).
set -u
OUT=${OUT:-gpu-profile-out}
export PYTHONPATH=${PYTHONPATH:-.}
twill() { python3 -m twill.cli "$@"; }
for k in fa3 gemm; do
  echo "== twill profile kernels/$k.py --arch h200"
  twill profile kernels/$k.py --arch h200 -o "$OUT/profile-$k-h200"
  echo "== twill profile kernels/$k.py --arch h200 --schedule bench/results/schedules/$k-h200"
  twill profile kernels/$k.py --arch h200 --schedule bench/results/schedules/$k-h200 -o "$OUT/profile-$k-twill-h200"
done
echo "== twill profile kernels/fa3.py --arch h200 --buffer-type global --buffer-size 16384"
twill profile kernels/fa3.py --arch h200 --buffer-type global --buffer-size 16384 -o "$OUT/profile-fa3-h200-global"
