#!/usr/bin/env bash
# Run 19 on the GPU machine (session 18).
#   a: the generated kernel of a GEMM whose operands are loaded through pointers (tests/corpus/pointer_gemm.py,
#      Triton's tutorial 03 style): the producer copies the tiles with cp.async; checked against the reference and
#      timed against Triton's own compile (3 configs) and cuBLAS; with its rings 3 and 4 deep and without the
#      consumer's proxy fence (runs/mk19.py), then head to head in the same rounds.
#   b: the same after run 19a: rings 3 deep by the generator's rule, the path through registers for launches too
#      little aligned for cp.async, correctness on both paths.
set -u
G=bench/results/gluon
R=$G/runs/run19
case "${1:-a}" in
a)
  PYTHONPATH=. timeout 300 python bench/gluon_gpu.py $R/pointer_gemm $R/pointer_gemm-d3 $R/pointer_gemm-d4 \
    $R/pointer_gemm-nofence --out $OUT/gpu-pointer.json 2>&1 | tee $OUT/run19a.log
  PYTHONPATH=. timeout 200 python bench/gluon_vs.py $R/pointer_gemm $R/pointer_gemm-d3 $R/pointer_gemm-d4 \
    $R/pointer_gemm-nofence --rounds 7 --out $OUT/vs-pointer.json 2>&1 | tee -a $OUT/run19a.log
  ;;
b)
  # the generator's rings now 3 deep (cp.async: the iteration's copies land together, at the pointer loads' rate);
  # launches too little aligned for cp.async copy through registers (MORE_CHECKS), checked as well
  PYTHONPATH=. timeout 300 python bench/gluon_gpu.py $R/pointer_gemm $R/pointer_gemm-d4 $R/pointer_gemm-nofence \
    --out $OUT/gpu-pointer-b.json 2>&1 | tee $OUT/run19b.log
  PYTHONPATH=. timeout 200 python bench/gluon_vs.py $R/pointer_gemm $R/pointer_gemm-d4 $R/pointer_gemm-nofence \
    --rounds 9 --out $OUT/vs-pointer-b.json 2>&1 | tee -a $OUT/run19b.log
  ;;
esac
