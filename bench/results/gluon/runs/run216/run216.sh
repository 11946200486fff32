#!/usr/bin/env bash
# Run 216 (session 85, #17 and #14), two device calls (`run216.sh a`, `run216.sh b`):
# (a) run 215's part (a), which found no machine: the FA backward validated with the region-sums profile under its
#     new plan (the D load's region beside clean regions; consumer 1's dpT wait timed by difference);
# (b) the plain FA forward (the Triton route's schedule) validated with its re-profile now in runs of a few regions
#     (profiling/subsets.py; run 214's one run with every region cost x1.263), then the Gluon GEMM validated, its
#     speed table every contender in 3 rotating rounds (session 84).
set -u
OUT=${OUT:-/tmp/run216}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > "$OUT/gpu.txt"
case "${1:-a}" in
  a) PYTHONPATH=. timeout 420 python -m twill validate kernels/fa_bwd.py --arch h200 --schedule bench/results/gluon/fa_bwd \
       --sums auto -o "$OUT/validate-fa_bwd" > "$OUT/validate-fa_bwd.log" 2>&1 ;;
  b) PYTHONPATH=. timeout 330 python -m twill validate kernels/fa3.py --arch h200 --schedule bench/results/schedules/fa3-h200 \
       -o "$OUT/validate-fa3-plain" > "$OUT/validate-fa3-plain.log" 2>&1
     PYTHONPATH=. timeout 200 python -m twill validate kernels/gemm.py --arch h200 --schedule bench/results/gluon/gemm \
       -o "$OUT/validate-gemm" > "$OUT/validate-gemm.log" 2>&1 ;;
esac
bash bench/results/gluon/runs/device_tree.sh pack "$OUT"
