#!/usr/bin/env bash
# Run 207 (session 80, #17): region sums (profiling/gluon_sums.py) against the plain kernel and Proton's records.
# a: the FA forward's sums beside Proton's worst region of run 141 (bench/gluon_sums.py); twill validate --sums 0
#    (every region in one run) on the GEMM and the FA forward.  b: twill validate --sums 4 on the FA backward.
set -u
OUT=${OUT:-/tmp/run207}
mkdir -p "$OUT"
case "${1:-a}" in
  a) nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv | tee "$OUT/gpu.txt"
     python bench/gluon_sums.py bench/results/gluon/fa3 --per-run 0 --proton p1:sfu1_alpha_s1 --json "$OUT/fa3-sums.json" 2>&1 | tee "$OUT/fa3-sums.log"
     python -m twill validate kernels/gemm.py --arch h200 --schedule bench/results/gluon/gemm --sums 0 -o "$OUT/validate-gemm" 2>&1 | tee "$OUT/validate-gemm.log"
     python -m twill validate kernels/fa3.py --arch h200 --schedule bench/results/gluon/fa3 --sums 0 -o "$OUT/validate-fa3" 2>&1 | tee "$OUT/validate-fa3.log" ;;
  b) python -m twill validate kernels/fa_bwd.py --arch h200 --schedule bench/results/gluon/fa_bwd --sums 4 -o "$OUT/validate-fa_bwd" 2>&1 | tee "$OUT/validate-fa_bwd.log" ;;
esac
