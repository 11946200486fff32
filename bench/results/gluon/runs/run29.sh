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
#   b: w8a16_gemm regenerated with the previous wgmma retired under its successor's token (29a's ptxas serialised its
#      wgmmas), and with an 8-warp cp.async producer for A.
case "${1:-a}" in
b)
  PYTHONPATH=. timeout 240 python bench/gluon_gpu.py $G/w8a16_gemm --out $OUT/gpu29b-w8a16_gemm.json 2>&1 \
    | tee -a $OUT/run29b.log
  PYTHONPATH=. timeout 300 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "w8a16_gemm" 2>&1 | tail -8 \
    | tee -a $OUT/run29b.log
  ;;
esac
#   c: grouped_decode_attention (GQA decode: two mma.sync dots on 16-row tiles).
case "${1:-a}" in
c)
  PYTHONPATH=. timeout 240 python bench/gluon_gpu.py $G/grouped_decode_attention \
    --out $OUT/gpu29c-grouped_decode_attention.json 2>&1 | tee -a $OUT/run29c.log
  PYTHONPATH=. timeout 300 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "grouped_decode_attention" 2>&1 \
    | tail -8 | tee -a $OUT/run29c.log
  ;;
esac
#   d: chunk_state (flash-linear-attention's state pass: a store of the carried wgmma accumulator in the loop).
case "${1:-a}" in
d)
  PYTHONPATH=. timeout 240 python bench/gluon_gpu.py $G/chunk_state --out $OUT/gpu29d-chunk_state.json 2>&1 \
    | tee -a $OUT/run29d.log
  PYTHONPATH=. timeout 300 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "chunk_state" 2>&1 | tail -8 \
    | tee -a $OUT/run29d.log
  ;;
esac
#   e: chunk_state with two CTAs per SM (register limit 128), and with 3-deep rings on top (hand edits).
case "${1:-a}" in
e)
  PYTHONPATH=. timeout 400 python bench/gluon_gpu.py $G/chunk_state $G/runs/run29/chunk_state-occ \
    $G/runs/run29/chunk_state-occ-ring3 --out $OUT/gpu29e.json 2>&1 | tee -a $OUT/run29e.log
  ;;
esac
#   f: chunk_state and sibling_loops as generated with two CTAs per SM (plan._two_ctas).
case "${1:-a}" in
f)
  PYTHONPATH=. timeout 300 python bench/gluon_gpu.py $G/chunk_state $G/sibling_loops --out $OUT/gpu29f.json 2>&1 \
    | tee -a $OUT/run29f.log
  PYTHONPATH=. timeout 300 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "chunk_state or sibling_loops" 2>&1 \
    | tail -8 | tee -a $OUT/run29f.log
  ;;
esac
#   g: fused_moe_decode (vLLM's fused MoE at a decode configuration: gathered rows, mma.sync).
case "${1:-a}" in
g)
  PYTHONPATH=. timeout 240 python bench/gluon_gpu.py $G/fused_moe_decode --out $OUT/gpu29g-fused_moe_decode.json 2>&1 \
    | tee -a $OUT/run29g.log
  PYTHONPATH=. timeout 300 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "fused_moe_decode" 2>&1 | tail -8 \
    | tee -a $OUT/run29g.log
  ;;
esac
#   h: ieee_gemm (an fp32 GEMM at IEEE precision: Triton's FMA dot, written with gl.dot_fma).
case "${1:-a}" in
h)
  PYTHONPATH=. timeout 300 python bench/gluon_gpu.py $G/ieee_gemm --out $OUT/gpu29h-ieee_gemm.json 2>&1 \
    | tee -a $OUT/run29h.log
  PYTHONPATH=. timeout 300 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "ieee_gemm" 2>&1 | tail -8 \
    | tee -a $OUT/run29h.log
  ;;
esac
