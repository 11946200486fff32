#!/usr/bin/env bash
# Run 207 (session 80, #17): twill validate --sums (region sums, profiling/gluon_sums.py, in place of Proton's records)
# on the FA forward and the GEMM (every region in one run); with WITH_BWD=1 the FA backward too (4 regions a run).
set -u
OUT=${OUT:-/tmp/run207}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv | tee "$OUT/gpu.txt"
if [ "${1:-}" = quick ]; then   # the sums alone (bench/gluon_sums.py: no correctness or speed sweep), Proton's worst region beside
  python bench/gluon_sums.py bench/results/gluon/fa3 --per-run 0 --proton p1:sfu1_alpha_s1 --json "$OUT/fa3-sums.json" 2>&1 | tee "$OUT/fa3-sums.log"
  python bench/gluon_sums.py bench/results/gluon/gemm --per-run 0 --json "$OUT/gemm-sums.json" 2>&1 | tee "$OUT/gemm-sums.log"
  exit 0
fi
python -m twill validate kernels/fa3.py --arch "${ARCH:-h200}" --schedule bench/results/gluon/fa3 --sums 0 -o "$OUT/validate-fa3" 2>&1 | tee "$OUT/validate-fa3.log"
python -m twill validate kernels/gemm.py --arch "${ARCH:-h200}" --schedule bench/results/gluon/gemm --sums 0 -o "$OUT/validate-gemm" 2>&1 | tee "$OUT/validate-gemm.log"
[ "${WITH_BWD:-0}" = 1 ] && python -m twill validate kernels/fa_bwd.py --arch "${ARCH:-h200}" --schedule bench/results/gluon/fa_bwd --sums 4 -o "$OUT/validate-fa_bwd" 2>&1 | tee "$OUT/validate-fa_bwd.log"
