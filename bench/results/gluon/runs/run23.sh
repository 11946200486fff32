#!/usr/bin/env bash
# Run 23 on the GPU machine (session 21): twill validate with the steady period (the median gap between a
# once-per-iteration region's starts, as the replay and the schedule count it) beside the amortized one (the mean
# gap, the tiles' gaps spread over the iterations: what every profile before recorded).
#   a: the GEMM, the FA forward (N = 4k) and causal attention (N = 4k).
#   b: the FA backward (N = 4k), and causal attention again: its profile traced SMALL in a (N = 512: tiles of 0-3
#      trips), now the kernel file's PROFILE_PROBLEM (N = 4k, one tile per program, up to 31 trips before the diagonal).
set -u
G=bench/results/gluon
case "${1:-a}" in
a)
  PYTHONPATH=. timeout 150 python -m twill validate kernels/gemm.py --arch h200 --schedule $G/gemm --per-run 2 \
    --budget 60 -o $OUT/validate-gemm 2>&1 | tee $OUT/run23a.log
  PYTHONPATH=. timeout 230 python -m twill validate kernels/fa3.py --arch h200 --schedule $G/fa3 --per-run 2 \
    --budget 110 -o $OUT/validate-fa3 2>&1 | tee -a $OUT/run23a.log
  PYTHONPATH=. timeout 200 python -m twill validate tests/corpus/causal_attention.py --arch h200 --schedule $G/fa_causal \
    --per-run 2 --budget 100 -o $OUT/validate-causal 2>&1 | tee -a $OUT/run23a.log
  ;;
b)
  PYTHONPATH=. timeout 350 python -m twill validate kernels/fa_bwd.py --arch h200 --schedule $G/fa_bwd --per-run 3 \
    --budget 220 -o $OUT/validate-fa_bwd 2>&1 | tee $OUT/run23b.log
  PYTHONPATH=. timeout 220 python -m twill validate tests/corpus/causal_attention.py --arch h200 --schedule $G/fa_causal \
    --per-run 2 --budget 110 -o $OUT/validate-causal 2>&1 | tee -a $OUT/run23b.log
  (cd $OUT && tar czf validate.tgz validate-* && rm -rf validate-*)
  ;;
d)  # the FA backward alone, with run 18f's budget (b's 350 s ran out after 18 of its runs)
  PYTHONPATH=. timeout 590 python -m twill validate kernels/fa_bwd.py --arch h200 --schedule $G/fa_bwd --per-run 3 \
    --budget 300 -o $OUT/validate-fa_bwd 2>&1 | tee $OUT/run23d.log
  (cd $OUT && tar czf validate.tgz validate-fa_bwd && rm -rf validate-fa_bwd)
  ;;
c)  # causal attention alone (b's was refused: the corpus file had changed since its kernel was generated)
  PYTHONPATH=. timeout 250 python -m twill validate tests/corpus/causal_attention.py --arch h200 --schedule $G/fa_causal \
    --per-run 2 --budget 110 -o $OUT/validate-causal 2>&1 | tee $OUT/run23c.log
  (cd $OUT && tar czf validate.tgz validate-causal && rm -rf validate-causal)
  ;;
esac
