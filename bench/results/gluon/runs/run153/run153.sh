#!/usr/bin/env bash
# Run 153 (session 60): the two kernels run 152 could not validate (no anchor period: now the loop run's), with the
# correctness line that names a failing check; and square_attention's stall sample (its loop 2.4x the replay).
set -u
G=bench/results/gluon
T=$(mktemp -d)
v() {   # label kernel-file [more validate options]
  local l=$1 f=$2; shift 2
  PYTHONPATH=. timeout 150 python -m twill validate "$f" --arch h200 --schedule $G/$l -o $T/$l --loops-only "$@" \
    2>&1 | tee -a $OUT/run153.log | grep -E "correctness|per iteration|loop run|stall|^twill|rror" | head -8
  mkdir -p $OUT/$l && cp $T/$l/validation.json $OUT/$l/ 2>/dev/null
}
v fa2_triton_bwd tests/corpus/fa2_triton_bwd.py
v flaggems_bmm tests/corpus/flaggems_bmm.py
v square_attention tests/corpus/square_attention.py --stalls
