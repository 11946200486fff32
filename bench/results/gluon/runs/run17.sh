#!/usr/bin/env bash
# Run 17 on the GPU machine (session 16): the FA backward's dQ through a reducer partition (runs/run17/mk17.py).
#   a: both hand-edited variants checked against the reference, then head to head with the committed fa_bwd (and
#      Triton's default) in the same rounds at 1k / 4k / 16k, then a PC sample of each (ncu).
set -u
G=bench/results/gluon
R=$G/runs/run17
case "${1:-a}" in
a)
  PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $R/fa_bwd-dq-reducer $R/fa_bwd-dq-reducer-scale --sizes 4096 \
    --out $OUT/gpu-reducer.json 2>&1 | tee $OUT/run17a.log
  PYTHONPATH=. timeout 330 python bench/gluon_vs.py $G/fa_bwd $R/fa_bwd-dq-reducer $R/fa_bwd-dq-reducer-scale --rounds 5 \
    --sizes 1024,4096,16384 --out $OUT/vs-fa_bwd.json 2>&1 | tee -a $OUT/run17a.log
  PYTHONPATH=. timeout 200 python bench/gluon_stalls.py $R/fa_bwd-dq-reducer $R/fa_bwd-dq-reducer-scale --out $OUT/stalls \
    2>&1 | tee -a $OUT/run17a.log
  ;;
b)
  # the reducer as the generator writes it (twill optimize, the committed fa_bwd), against the kernel it replaced
  # (runs/run17/fa_bwd-run16, the committed fa_bwd before) and the hand-written variant, in the same rounds
  PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $G/fa_bwd --sizes 1024,4096 --out $OUT/gpu-fa_bwd.json \
    2>&1 | tee $OUT/run17b.log
  PYTHONPATH=. timeout 330 python bench/gluon_vs.py $G/fa_bwd $R/fa_bwd-run16 $R/fa_bwd-dq-reducer --rounds 5 \
    --sizes 1024,4096,16384 --out $OUT/vs-fa_bwd-b.json 2>&1 | tee -a $OUT/run17b.log
  ;;
esac
