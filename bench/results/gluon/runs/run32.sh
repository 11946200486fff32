#!/usr/bin/env bash
# Run 32 on the GPU machine (session 30): pointer tiles as TMA boxes (codegen/gluon/boxes.py). The producer issues one
# TMA copy per tile where the launcher could build the tile's descriptor (TWILL_TMA), else its cp.async copies.
#   a: the pointer GEMMs and pointer attention timed against Triton's best (TMA path, every launch aligned), with their
#      GPU tests (correctness, two seeds, NaN-poisoned outputs, SMALL's partial tiles and MORE_CHECKS' unaligned ones).
#   b: the same kernels with TWILL_TMA_OFF=1 (cp.async, as before): the A/B on the same machine, one size.
set -u
G=bench/results/gluon
K="guarded_gemm splitk_gemm pointer_attention block_fp8_gemm splitk_guarded fp8_gemm"
case "${1:-a}" in
a)
  PYTHONPATH=. timeout 420 python bench/gluon_gpu.py $(for k in $K; do echo $G/$k; done) --out $OUT/gpu32a.json 2>&1 \
    | tee -a $OUT/run32a.log
  PYTHONPATH=. timeout 150 python -m pytest -q tests/gpu/test_gpu_gluon.py \
    -k "$(echo $K | sed 's/ / or /g')" 2>&1 | tail -8 | tee -a $OUT/run32a.log
  ;;
b)
  TWILL_TMA_OFF=1 PYTHONPATH=. timeout 400 python bench/gluon_gpu.py $(for k in $K; do echo $G/$k; done) \
    --out $OUT/gpu32b.json 2>&1 | tee -a $OUT/run32b.log
  ;;
esac
# c: after a's host times (the launcher's descriptors built with eval on every launch: 187-306 us a call against b's
#    68-105): the expressions compiled once. fp8_gemm and pointer_attention again, and the other boxed kernels.
case "${1:-a}" in
c)
  K2="fp8_gemm pointer_attention tf32_gemm int8_gemm diagonal_mask_attention w8a16_gemm"
  PYTHONPATH=. timeout 420 python bench/gluon_gpu.py $(for k in $K2; do echo $G/$k; done) --out $OUT/gpu32c.json 2>&1 \
    | tee -a $OUT/run32c.log
  PYTHONPATH=. timeout 150 python -m pytest -q tests/gpu/test_gpu_gluon.py \
    -k "$(echo $K2 | sed 's/ / or /g')" 2>&1 | tail -8 | tee -a $OUT/run32c.log
  ;;
esac
# d: pointer_attention compiled at 8 warps (`twill optimize ... --num-warps 8`): its 128 rows split between two 4-warp
#    consumers (at the file's 4 warps the route cannot split them: each sub-tile needs a warpgroup of the kernel's).
case "${1:-a}" in
d)
  PYTHONPATH=. timeout 300 python bench/gluon_gpu.py bench/results/gluon/runs/run32/d/pointer_attention-w8 \
    --out $OUT/gpu32d.json 2>&1 | tee -a $OUT/run32d.log
  ;;
esac
# e: transposed boxes (B^T of fp8 GEMMs, K^T of attention loaded [D, BN]): the ring holds the box as TMA writes it, its
#    readers and the cp.async copies see it permuted. Timed on TMA, then each kernel's checks on the cp.async path
#    (into the permuted view) and through registers.
case "${1:-a}" in
e)
  K3="fp8_gemm block_fp8_gemm diagonal_mask_attention"
  PYTHONPATH=. timeout 300 python bench/gluon_gpu.py $(for k in $K3; do echo $G/$k; done) --out $OUT/gpu32e.json 2>&1 \
    | tee -a $OUT/run32e.log
  PYTHONPATH=. timeout 120 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "$(echo $K3 | sed 's/ / or /g')" 2>&1 \
    | tail -4 | tee -a $OUT/run32e.log
  for k in $K3; do for v in TWILL_TMA_OFF TWILL_COPY_OFF; do
    env $v=1 PYTHONPATH=. timeout 100 python bench/gluon_gpu.py --one $G/$k --sizes 1024 2>&1 | grep '^{' \
      | python -c "import json,sys; r=json.loads(sys.stdin.read()); print('$k $v:', r['pass'], [c['rel_err'] for c in r['checks']])" \
      | tee -a $OUT/run32e.log
  done; done
  ;;
esac
# f: a pointer tile along rows split between consumers (refused before): the producer copies the whole tile into one
#    ring, each consumer's wgmma reads its rows' slice. block_fp8_gemm as the route now chooses it (2 sub-tiles, 1319
#    cycles predicted against 1320 for one) and fp8_gemm forced to 2 (--row-split 2), beside their 1-sub-tile kernels.
case "${1:-a}" in
f)
  F=bench/results/gluon/runs/run32/f
  PYTHONPATH=. timeout 400 python bench/gluon_gpu.py $F/block_fp8_gemm-2sub $G/block_fp8_gemm $F/fp8_gemm-2sub $G/fp8_gemm \
    --out $OUT/gpu32f.json 2>&1 | grep -v '^baseline' | tee -a $OUT/run32f.log
  for k in block_fp8_gemm-2sub fp8_gemm-2sub; do for v in TWILL_TMA_OFF TWILL_COPY_OFF; do
    env $v=1 PYTHONPATH=. timeout 100 python bench/gluon_gpu.py --one $F/$k --sizes 1024 2>&1 | grep '^{' \
      | python -c "import json,sys; r=json.loads(sys.stdin.read()); print('$k $v:', r['pass'], [c['rel_err'] for c in r['checks']])" \
      | tee -a $OUT/run32f.log
  done; done
  ;;
esac
# g: the committed kernels as they stand at the end of the session (their launchers catch a descriptor the host
#    refuses): every boxed kernel's GPU test.
case "${1:-a}" in
g)
  K4="guarded_gemm splitk_gemm pointer_attention block_fp8_gemm splitk_guarded fp8_gemm tf32_gemm int8_gemm"
  K4="$K4 diagonal_mask_attention w8a16_gemm block_ptr_gemm sibling_loops"
  PYTHONPATH=. timeout 400 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "$(echo $K4 | sed 's/ / or /g')" 2>&1 \
    | tail -6 | tee -a $OUT/run32g.log
  ;;
esac
# h: where the generated kernels' host time per launch goes (bench/launch_overhead.py).
case "${1:-a}" in
h)
  PYTHONPATH=. timeout 300 python bench/launch_overhead.py $G/fa3 $G/gemm $G/fp8_gemm $G/pointer_attention $G/guarded_gemm \
    2>&1 | tee -a $OUT/run32h.log
  ;;
esac
