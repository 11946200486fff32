#!/usr/bin/env bash
# Run 25 on the GPU machine (session 23).
#   a: the three pointer-load corpus kernels regenerated with the specialisation a launch at PROBLEM gets (pointers
#      16-byte aligned, N / stride / n_cols divisible by 16: 16-byte vectors, as Triton's own compile has), beside the
#      committed narrow ones (runs/run25/*-narrow: 2- and 4-byte loads, the layouts of a spec that did not say so),
#      each against Triton; then their GPU tests (the SMALL launches pass N=3000 / 1000, not divisible: the vector
#      layout with addresses Gluon's launch does not know aligned).
set -u
G=bench/results/gluon
R=$G/runs/run25
case "${1:-a}" in
a)
  PYTHONPATH=. timeout 300 python bench/gluon_gpu.py $G/row_absmax $R/row_absmax-narrow $G/rms_norm_bwd \
    $R/rms_norm_bwd-narrow $G/online_softmax $R/online_softmax-narrow --out $OUT/gpu25a.json 2>&1 | tee $OUT/run25a.log
  PYTHONPATH=. timeout 300 python -m pytest -q tests/gpu/test_gpu_gluon.py \
    -k "row_absmax or rms_norm_bwd or online_softmax" 2>&1 | tail -5 | tee -a $OUT/run25a.log
  ;;
esac
# b: row_absmax regenerated with its flattening reshape (tt.reshape allow_reorder before the whole-block max) written
#    as the block itself, not a convert_layout through shared memory every iteration; and its GPU test.
case "${1:-a}" in
b)
  PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $G/row_absmax --out $OUT/gpu25b.json 2>&1 | tee $OUT/run25b.log
  PYTHONPATH=. timeout 200 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "row_absmax" 2>&1 | tail -3 | tee -a $OUT/run25b.log
  ;;
esac
