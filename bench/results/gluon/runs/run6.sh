#!/usr/bin/env bash
# Run 6 on the GPU machine, two calls. Call 1: the FA backward with its register A operands staged through
# shared memory (wgmmas no longer serialised) A/B against run 5's kernel, interleaved; fa3 (meant as run 5's loop: it was
# the route's staged choice of that moment, NOTES.md); the GPU Gluon tests. Call 2 (`run6.sh profile`): the FA backward's per-partition profile.
set -u
G=bench/results/gluon
R=$G/runs/run6/ab
if [ "${1:-}" = profile ]; then
  PYTHONPATH=. timeout 400 python bench/gluon_profile.py $G/fa_bwd --out $OUT/profile 2>&1 | tail -20 | tee $OUT/run6-profile.log
  exit 0
fi
PYTHONPATH=. python bench/gluon_gpu.py $G/fa_bwd $R/fa_bwd-run5 $R/fa_bwd-run5 $G/fa_bwd $G/fa3 \
  --timeout 120 --out $OUT/run6.json 2>&1 | tee $OUT/run6.log
PYTHONPATH=. timeout 200 python -m pytest -q tests/gpu/test_gpu_gluon.py 2>&1 | tail -5 | tee -a $OUT/run6.log
