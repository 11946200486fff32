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
#   b: grouped_gemm (Triton's tutorial 08: a loop over groups, a `while` over a group's tiles, the K loop inside,
#      operand pointers loaded from memory), now generated with the nest written around each partition; its copies go
#      through registers (cp.async cannot copy tiles whose addresses are not known aligned). Against Triton's own
#      and cuBLAS (one product per group); then its GPU test (two seeds, NaN-poisoned).
case "${1:-a}" in
b)
  PYTHONPATH=. timeout 400 python bench/gluon_gpu.py $G/grouped_gemm --out $OUT/gpu27b.json 2>&1 | tee $OUT/run27b.log
  PYTHONPATH=. timeout 300 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "grouped_gemm or persistent_gemm" 2>&1 \
    | tail -5 | tee -a $OUT/run27b.log
  ;;
esac
#   c: grouped_gemm again, now copying with cp.async: the tutorial's `tl.multiple_of(a_ptrs, [16, 16])` on the K loop's
#      pointers (TTGIR: `tt.divisibility_arg<N>` on the loop) restated in the producer; then its GPU test.
case "${1:-a}" in
c)
  PYTHONPATH=. timeout 400 python bench/gluon_gpu.py $G/grouped_gemm --out $OUT/gpu27c.json 2>&1 | tee $OUT/run27c.log
  PYTHONPATH=. timeout 300 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "grouped_gemm" 2>&1 | tail -5 \
    | tee -a $OUT/run27c.log
  ;;
esac
