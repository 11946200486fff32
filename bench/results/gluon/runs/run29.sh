#!/usr/bin/env bash
# Run 29 on the GPU machine (session 27): two weight-quantised GEMMs in the styles of public libraries, against
# Triton's own compile of the same file, then their GPU tests (two seeds, NaN-poisoned outputs).
#   awq_gemm: vLLM's AWQ kernel (tl.interleave: tt.join + tt.reshape; 32-row tiles: mma.sync written as mma_v2);
#   w8a16_gemm: B dequantised in registers, put in shared memory for wgmma each iteration (two buffers).
set -u
G=bench/results/gluon
case "${1:-a}" in
a)
  for k in awq_gemm w8a16_gemm; do
    PYTHONPATH=. timeout 240 python bench/gluon_gpu.py $G/$k --out $OUT/gpu29a-$k.json 2>&1 | tee -a $OUT/run29a.log
  done
  PYTHONPATH=. timeout 300 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "awq_gemm or w8a16_gemm" 2>&1 | tail -8 \
    | tee -a $OUT/run29a.log
  ;;
esac
