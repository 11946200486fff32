#!/usr/bin/env bash
# Run 15 on the GPU machine (session 14): the compact-load rule (codegen/gluon/compact.py) in the FA backward.
#   a: correctness of the regenerated fa_bwd (its LSE / delta vectors held one register per thread across the iteration,
#      not 16: 23 spill instructions in the loop instead of 188) and of fa_bwd-dq-split (FA3's dQ split by hand on top
#      of it, runs/run15/mk15.py), then fa_bwd-run14 (the kernel before), fa_bwd and fa_bwd-dq-split in the same rounds;
#   b: twill validate of the regenerated FA backward (every region, as run 14e): how much of the period is now outside
#      every region.
set -u
G=bench/results/gluon
R=$G/runs/run15
case "${1:-a}" in
a)
  PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $G/fa_bwd $R/fa_bwd-dq-split --sizes 4096 --out $OUT/gpu-fa_bwd.json \
    2>&1 | tee $OUT/run15a.log
  PYTHONPATH=. timeout 330 python bench/gluon_vs.py $R/fa_bwd-run14 $G/fa_bwd $R/fa_bwd-dq-split --rounds 5 \
    --sizes 1024,4096,16384 --out $OUT/vs-fa_bwd.json 2>&1 | tee -a $OUT/run15a.log
  ;;
b)
  PYTHONPATH=. timeout 570 python -m twill validate kernels/fa_bwd.py --arch h200 --schedule $G/fa_bwd --per-run 3 \
    --budget 330 -o $OUT/validate/fa_bwd 2>&1 | tee $OUT/run15b.log
  ;;
esac
