#!/usr/bin/env bash
# Run 214 (session 83, #17 and #14): on an H200 (the first in sessions 80-83), the committed kernels validated with the
# region-sums profile and the FA forward's sizes head to head with cuDNN. Run as four device calls (the H200 came for
# run 213's first call; these followed on the warm machine); the commands as run, in order:
set -u
OUT=${OUT:-/tmp/run214}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > "$OUT/gpu.txt"
for k in fa3 gemm fa_bwd; do       # the FA backward's ran in the call after run 213's (see RUN.md)
  PYTHONPATH=. timeout 330 python -m twill validate kernels/$k.py --arch h200 --schedule bench/results/gluon/$k --sums auto \
    -o "$OUT/validate-$k" > "$OUT/validate-$k.log" 2>&1
done
PYTHONPATH=. timeout 300 python bench/gluon_vs.py bench/results/gluon/fa3 --sizes 1024,4096,16384 --rounds 5 \
  --out "$OUT/vs-fa3.json" > "$OUT/vs-fa3.log" 2>&1
PYTHONPATH=. timeout 200 python bench/gluon_vs.py bench/results/gluon/fa_bwd --sizes 16384 --rounds 3 \
  --out "$OUT/vs-fa_bwd16k.json" > "$OUT/vs-fa_bwd16k.log" 2>&1
# the plain FA forward: the Triton route's realisable schedule, Triton's pipeliner, its own (per-op) re-profile
PYTHONPATH=. timeout 280 python -m twill validate kernels/fa3.py --arch h200 --schedule bench/results/schedules/fa3-h200 \
  -o "$OUT/validate-fa3-plain" > "$OUT/validate-fa3-plain.log" 2>&1
