#!/usr/bin/env bash
# Run 7 on the GPU machine, one call: the per-partition profile of the persistent fa3 and gemm kernels (run 5's,
# unchanged) with each run's overhead read against the plain kernel timed beside it (bench/gluon_profile.py
# ADJACENT_PAIRS), two regions per run, and time to split every run over 5 % (issue 17).
set -u
G=bench/results/gluon
PYTHONPATH=. timeout 560 python bench/gluon_profile.py $G/fa3 $G/gemm --per-run 2 --budget 110 --timeout 270 \
  --out $OUT/profile 2>&1 | grep -v "^\s*$" | tail -80 | tee $OUT/run7.log
