#!/usr/bin/env bash
# Run 12 on the GPU machine (session 11), in three calls:
#   a: the FA forward solved with the calibrated costs (variant fa3-calibrated: I=272, each consumer runs the softmax
#      of the previous QK while the next QK is on the tensor core) A/B against the default fa3 (the kernel of runs
#      9-11), head to head with cuDNN and Triton's default, interleaved round by round (bench/gluon_vs.py);
#   b: per-partition profiles with Proton's global record buffer (the shared one made ptxas spill in the consumers'
#      wgmma loops): fa3-calibrated (its measured period against the 2097 / 2100 predicted) and fa3 (the overhead
#      against run 11's 1.02-1.28 with the shared buffer);
#   c: the GEMM and its two-consumer split (data for the calibration: no profile had dot.64x256x64), GPU tests.
set -u
G=bench/results/gluon
case "${1:-a}" in
a)
  PYTHONPATH=. timeout 420 python bench/gluon_vs.py $G/fa3 $G/fa3-calibrated --rounds 7 --out $OUT/vs-fa3.json 2>&1 \
    | tee $OUT/run12a.log
  ;;
b)
  PYTHONPATH=. timeout 580 python bench/gluon_profile.py $G/fa3-calibrated $G/fa3 --per-run 2 --budget 110 \
    --timeout 280 --out $OUT/profile 2>&1 | tee $OUT/run12b.log
  ;;
c)
  PYTHONPATH=. timeout 330 python bench/gluon_profile.py $G/gemm $G/gemm-two-groups --per-run 2 --budget 80 \
    --timeout 160 --out $OUT/profile 2>&1 | tee $OUT/run12c.log
  PYTHONPATH=. timeout 240 python -m pytest -q tests/gpu/test_gpu_gluon.py 2>&1 | tail -5 | tee -a $OUT/run12c.log
  ;;
esac
