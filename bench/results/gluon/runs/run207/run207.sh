#!/usr/bin/env bash
# Run 207 (session 80, #17): twill validate --sums (region sums, profiling/gluon_sums.py, in place of Proton's records)
# on the FA forward and the GEMM (every region in one run) and (session 81; WITH_BWD=0 leaves it) the FA backward, its
# runs planned from their SASS (--sums auto).
set -u
OUT=${OUT:-/tmp/run207}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv | tee "$OUT/gpu.txt"
if [ "${1:-}" = quick ]; then   # the sums alone (bench/gluon_sums.py: no correctness or speed sweep), Proton's worst region beside
  python bench/gluon_sums.py bench/results/gluon/fa3 --per-run 0 --proton p1:sfu1_alpha_s1 --json "$OUT/fa3-sums.json" 2>&1 | tee "$OUT/fa3-sums.log"
  python bench/gluon_sums.py bench/results/gluon/gemm --per-run 0 --json "$OUT/gemm-sums.json" 2>&1 | tee "$OUT/gemm-sums.log"
  exit 0
fi
v() {  # kernel, variant, seconds, flags
  PYTHONPATH=. timeout "$3" python -m twill validate "$1" --arch "${ARCH:-h200}" --schedule "bench/results/gluon/$2" \
    "${@:4}" -o "$OUT/validate-$2" 2>&1 | tee "$OUT/validate-$2.log"
}
v kernels/fa3.py fa3 200 --sums 0
v kernels/gemm.py gemm 120 --sums 0
# session 81: the FA backward's runs as planned offline from their SASS (bench/results/gluon/fa_bwd/sums_plan.json)
[ "${WITH_BWD:-1}" = 1 ] && v kernels/fa_bwd.py fa_bwd 240 --sums auto
