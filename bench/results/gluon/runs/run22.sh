#!/usr/bin/env bash
# Run 22 on the GPU machine (session 21).
#   a: the FA forward with each consumer's PV split along the keys into 2 and 4 chained wgmmas (runs/run22/mk22.py,
#      by hand from the committed fa3): correctness, then head to head with the committed fa3 and cuDNN in rounds.
set -u
G=bench/results/gluon
R=$G/runs/run22
case "${1:-a}" in
a)
  PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $R/fa3-ksplit2 $R/fa3-ksplit4 --sizes 1024,16384 \
    --out $OUT/gpu22a.json 2>&1 | tee $OUT/run22a.log
  PYTHONPATH=. timeout 330 python bench/gluon_vs.py $G/fa3 $R/fa3-ksplit2 $R/fa3-ksplit4 --rounds 5 \
    --sizes 1024,4096,16384 --out $OUT/vs22a.json 2>&1 | tee -a $OUT/run22a.log
  ;;
esac
