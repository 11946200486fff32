#!/usr/bin/env bash
# Run 218 (session 86, #17), one device call: the Triton route's records in one loop iteration of K
# (profiling.insert.sample_iterations). (1) the plain FA forward's exponent region alone and every region, recording
# every iteration against one in 2 and 4, their cost to the kernel; (2) the GPU validate tests of the Triton route
# (the re-profile's runs of a few regions now record one iteration in 2). `run218.sh a` does those; `run218.sh b`,
# on an H200 only: the Gluon FA backward and FA forward validated with their region sums (#17's figures on the H200).
set -u
OUT=${OUT:-/tmp/run218}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > "$OUT/gpu.txt"
S=bench/results/schedules/fa3-h200
if [ "${1:-a}" = b ]; then
  for k in fa_bwd fa3; do
    PYTHONPATH=. timeout 280 python -m twill validate kernels/$k.py --arch h200 --schedule bench/results/gluon/$k \
      --sums auto -o "$OUT/validate-$k" > "$OUT/validate-$k.log" 2>&1
  done
  bash bench/results/gluon/runs/device_tree.sh pack "$OUT"
  exit 0
fi
PYTHONPATH=. timeout 200 python bench/profile_sampling.py kernels/fa3.py --schedule $S --regions sfu0_p --every 1,2,4 \
  --rounds 2 > "$OUT/sampling-sfu0_p.log" 2>&1
PYTHONPATH=. timeout 100 python bench/profile_sampling.py kernels/fa3.py --schedule $S --regions all --every 1,2 \
  --rounds 1 > "$OUT/sampling-all.log" 2>&1
PYTHONPATH=. timeout 260 python -m pytest -q tests/gpu/test_gpu_validate.py -k committed_schedule -s \
  > "$OUT/gpu-test-validate.log" 2>&1
bash bench/results/gluon/runs/device_tree.sh pack "$OUT"
