#!/usr/bin/env bash
# Run 207b (session 80, #17): twill validate --sums on the GEMM, the FA forward and the FA backward.
# usage: run207b.sh PER_RUN_FA3 PER_RUN_GEMM PER_RUN_FA_BWD
set -u
OUT=${OUT:-/tmp/run207}
mkdir -p "$OUT"
python -m twill validate kernels/gemm.py --arch h200 --schedule bench/results/gluon/gemm --sums "${2:-0}" -o "$OUT/validate-gemm" 2>&1 | tee "$OUT/validate-gemm.log"
python -m twill validate kernels/fa3.py --arch h200 --schedule bench/results/gluon/fa3 --sums "${1:-0}" -o "$OUT/validate-fa3" 2>&1 | tee "$OUT/validate-fa3.log"
python -m twill validate kernels/fa_bwd.py --arch h200 --schedule bench/results/gluon/fa_bwd --sums "${3:-4}" -o "$OUT/validate-fa_bwd" 2>&1 | tee "$OUT/validate-fa_bwd.log"
