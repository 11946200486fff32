#!/usr/bin/env bash
# Run 34 on the GPU machine (session 32): profiles that record one tile in four (twill validate --every 4). Each
# recorded partition's work on a tile is written twice in the instrumented kernel, with the records and without,
# so three tiles in four run the plain code; both copies time their main loop, so a run reads what its records
# cost the loop they measure against the plain tiles of the same run.
#   a: the GEMM and the FA forward (N = 4k), --every 4, as run 23a otherwise.
#   b: the FA forward again with every tile recorded (--every 1: run 23a's way, for the comparison in this session),
#      and causal attention (N = 4k) with --every 4.
#   c: the FA backward (N = 4k) with --every 4.
set -u
G=bench/results/gluon
v() {  # v NAME KERNEL_FILE SCHEDULE_DIR EVERY PER_RUN BUDGET TIMEOUT
  PYTHONPATH=. timeout "$7" python -m twill validate "$2" --arch h200 --schedule "$G/$3" --per-run "$5" \
    --budget "$6" --every "$4" -o "$OUT/validate-$1" 2>&1 | tee -a "$OUT/run34.log"
}
case "${1:-a}" in
a)
  v gemm kernels/gemm.py gemm 4 2 60 150
  v fa3 kernels/fa3.py fa3 4 2 110 260
  ;;
b)
  v fa3-every1 kernels/fa3.py fa3 1 2 110 260
  v causal tests/corpus/causal_attention.py fa_causal 4 2 100 230
  ;;
c)
  v fa_bwd kernels/fa_bwd.py fa_bwd 4 3 300 590
  ;;
esac
(cd "$OUT" && tar czf validate.tgz validate-* && rm -rf validate-*)
