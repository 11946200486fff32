#!/usr/bin/env bash
# Run 27 on the GPU machine (session 25).
#   a: persistent_gemm (Triton's tutorial 09 persistent matmul: `tl.range(..., flatten=True)` over tiles around the K
#      loop, `tile_id_c` carried from tile to tile, pointer loads with the tutorial's contiguity hints), now generated
#      from the nest as written (Triton's loop fusion left out), against Triton's own (which fuses the nest) and
#      cuBLAS; then its GPU test (two seeds, NaN-poisoned; SMALL's K not a multiple of BLOCK_K).
set -u
G=bench/results/gluon
case "${1:-a}" in
a)
  PYTHONPATH=. timeout 400 python bench/gluon_gpu.py $G/persistent_gemm --out $OUT/gpu27a.json 2>&1 | tee $OUT/run27a.log
  PYTHONPATH=. timeout 300 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "persistent_gemm" 2>&1 | tail -5 \
    | tee -a $OUT/run27a.log
  ;;
esac
