#!/usr/bin/env bash
# Run 34 on the GPU machine (session 32): profiles that record one tile in four (twill validate --every 4). Each
# recorded partition's work on a tile is written twice in the instrumented kernel, with the records and without,
# so three tiles in four run the plain code; both copies time their main loop, so a run reads what its records
# cost the loop they measure against the plain tiles of the same run.
#   a: the GEMM and the FA forward (N = 4k), --every 4, as run 23a otherwise.
#   b: the FA forward's tile-sampled kernels taken apart (bench/tile_sampling.py): the second copy alone (no records),
#      the records with K = 4 and with K so large that only program 0's first tile records, every tile recorded.
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
  PYTHONPATH=. timeout 400 python bench/tile_sampling.py $G/fa3 --regions p1:sfu1_alpha_s1 --regions p0:dot0_qk_s0 \
    --regions p2:tma_load0_k 2>&1 | tee "$OUT/run34b.log"
  exit 0
  ;;
esac
(cd "$OUT" && tar czf validate.tgz validate-* && rm -rf validate-*)
