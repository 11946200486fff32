#!/usr/bin/env bash
# Run 207 (session 80, #17): region sums (profiling/gluon_sums.py) against the plain kernel and Proton's records.
set -u
OUT=${OUT:-/tmp/run207}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv | tee "$OUT/gpu.txt"
python bench/gluon_sums.py bench/results/gluon/fa3 --per-run 0 --proton p1:sfu1_alpha_s1 --json "$OUT/fa3-all.json" 2>&1 | tee "$OUT/fa3-all.log"
python bench/gluon_sums.py bench/results/gluon/fa3 --per-run 8 --json "$OUT/fa3-8.json" 2>&1 | tee "$OUT/fa3-8.log"
python bench/gluon_sums.py bench/results/gluon/gemm --per-run 0 --json "$OUT/gemm.json" 2>&1 | tee "$OUT/gemm.log"
python bench/gluon_sums.py bench/results/gluon/fa_bwd --per-run 8 --json "$OUT/fa_bwd-8.json" 2>&1 | tee "$OUT/fa_bwd-8.log"
