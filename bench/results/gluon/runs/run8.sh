#!/usr/bin/env bash
# Run 8 on the GPU machine, two calls (session 8). Call 1: the FA forward whose route chose LOOKAHEAD for sub-tile 1
# (consumer 1 issues QK(j) before PV(j-1) and waits at depth 1: the softmax runs while PV(j-1) does; replayed 2092
# cycles per iteration against 2187) A/B against the same split without LOOKAHEAD (run 5's schedule), interleaved,
# three passes each; the GPU Gluon tests. Call 2 (`run8.sh profile`): the LOOKAHEAD kernel's per-partition profile.
# Labels: run8.log's "fa3" was the LOOKAHEAD kernel, since committed as fa3-lookahead (`twill optimize --lookahead`),
# and its "fa3-no-lookahead" is since the default fa3 (LOOKAHEAD became opt-in after this run); the command below
# uses today's names, in the same order.
set -u
G=bench/results/gluon
if [ "${1:-}" = profile ]; then
  PYTHONPATH=. timeout 400 python bench/gluon_profile.py $G/fa3-lookahead --per-run 2 --budget 110 --timeout 270 \
    --out $OUT/profile 2>&1 | grep -v "^\s*$" | tail -60 | tee $OUT/run8-profile.log
  exit 0
fi
PYTHONPATH=. python bench/gluon_gpu.py $G/fa3-lookahead $G/fa3 $G/fa3 $G/fa3-lookahead $G/fa3-lookahead $G/fa3 \
  --timeout 120 --out $OUT/run8.json 2>&1 | tee $OUT/run8.log
PYTHONPATH=. timeout 200 python -m pytest -q tests/gpu/test_gpu_gluon.py 2>&1 | tail -5 | tee -a $OUT/run8.log
