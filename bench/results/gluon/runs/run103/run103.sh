#!/usr/bin/env bash
# Run 103 on the GPU machine (session 49). a: the FlexAttention decoding kernel as one partition (`--own-tiles on`),
# regenerated with its trip counts clamped at 0 (run 101: an illegal instruction before the clamp, never explained),
# beside the committed default-route kernel; then issue 17's FA backward validated with one tile in four recorded,
# its profile kept in a journal as each run ends (`twill validate` now continues an unfinished profile). b: the same
# validate command again, the journal of a copied in first (runs/run103/journal/), to make the runs left.
set -u
G=bench/results/gluon
R=$G/runs/run103
V=$OUT/validate-fa_bwd
validate() {
  PYTHONPATH=. timeout $((590 - SECONDS)) python -m twill validate kernels/fa_bwd.py --arch h200 --schedule $G/fa_bwd \
    --per-run 4 --every 4 --budget $(( (590 - SECONDS - 150) / 2 )) -o $V 2>&1 | tee -a $OUT/run103$1.log
}
case "${1:-a}" in
a)
  PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $G/inductor_flex_decoding $R/kernels/dec_own --sizes 16384 \
    --out $OUT/gpu103-dec.json 2>&1 | tee -a $OUT/run103a.log
  validate a
  ;;
b)
  mkdir -p $V && cp $R/journal/profile-journal.json $V/
  validate b
  ;;
esac
