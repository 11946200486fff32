#!/usr/bin/env bash
# Run 10 on the GPU machine (session 9): after run 9, the route's defaults changed (no turn barriers unless --tc-order;
# among kernels ptxas does not allocate cleanly, the predicted iteration ranks before the spill count). The FA backward
# is the two-consumer kernel again, now without turn barriers and with the handoff: A/B against run 9's fa_bwd-before
# (with turns, no handoff) in one process; then the GPU Gluon tests on every committed variant (fa3 is run 9's
# fa3-no-tc-order, byte for byte; fa3-tc-order is new as a variant).
set -u
G=bench/results/gluon
R=$G/runs/run9
PYTHONPATH=. timeout 150 python bench/gluon_vs.py $G/fa_bwd $R/fa_bwd-before --rounds 5 --sizes 1024,4096,16384 \
  --out $OUT/vs-fa_bwd.json 2>&1 | tee $OUT/run10.log
PYTHONPATH=. timeout 240 python -m pytest -q tests/gpu/test_gpu_gluon.py 2>&1 | tail -5 | tee -a $OUT/run10.log
