#!/usr/bin/env bash
# Run 215 (session 84, #17 and #14), one device call: (a) the FA backward validated with the region-sums profile
# under its new plan (a region that spills alone joins clean regions where beside them it does not: the D load's
# region, x1.158 alone in run 214, now beside 13 others at the loop run's 8 spill instructions; consumer 1's dpT wait
# timed by difference, its union with the dS elementwise around it less that region); (b) the GEMM head to
# head with cuBLAS and Triton at its validate configurations in the same interleaved rounds (run 214's validate timed
# Triton's num_stages 4 minutes after twill's kernel: 717.4 against 678.3), at 4096^3 and 8192^3.
set -u
# the GEMM's rounds first: the device time left this session (794 s after five calls found no machine) may not
# hold the whole FA backward profile
OUT=${OUT:-/tmp/run215}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > "$OUT/gpu.txt"
PYTHONPATH=. timeout 200 python bench/gluon_vs.py bench/results/gluon/gemm --square 4096,8192 --rounds 5 --configs \
  --out "$OUT/vs-gemm.json" > "$OUT/vs-gemm.log" 2>&1
PYTHONPATH=. timeout 330 python -m twill validate kernels/fa_bwd.py --arch h200 --schedule bench/results/gluon/fa_bwd \
  --sums auto -o "$OUT/validate-fa_bwd" > "$OUT/validate-fa_bwd.log" 2>&1
bash bench/results/gluon/runs/device_tree.sh pack "$OUT"
