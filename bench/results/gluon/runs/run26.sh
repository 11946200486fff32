#!/usr/bin/env bash
# Run 26 on the GPU machine (session 24).
#   a: the four corpus kernels with code around their loops that is not straight-line, now generated: an early
#      return with a loop in its branch (cross_entropy, Liger style), an early return before warp_specialize and an
#      if with a value on each side (guarded_gemm, fused-MoE style), a loop inside an if before the scheduled loop
#      (sibling_loops), a store before the loop and `x * x` (row_sumsq); each against Triton, then their GPU tests
#      (both sides of each branch: ignored labels, has_scale 0 / 1, flag 0 / 1).
set -u
G=bench/results/gluon
case "${1:-a}" in
a)
  PYTHONPATH=. timeout 400 python bench/gluon_gpu.py $G/cross_entropy $G/guarded_gemm $G/sibling_loops $G/row_sumsq \
    --out $OUT/gpu26a.json 2>&1 | tee $OUT/run26a.log
  PYTHONPATH=. timeout 300 python -m pytest -q tests/gpu/test_gpu_gluon.py \
    -k "cross_entropy or guarded_gemm or sibling_loops or row_sumsq" 2>&1 | tail -5 | tee -a $OUT/run26a.log
  ;;
esac
#   b: rms_norm_bwd with its compute in one stage (loads a stage ahead: 69 registers, 7 CTAs per SM by ptxas; the route
#      chose it per SM at the time, runs/run26/rms_norm_bwd-compute-one-stage) beside the schedule's three stages (80
#      registers, 6 CTAs; bench/results/gluon/rms_norm_bwd, run 25's, kept after this run); sibling_loops' baseline
#      again (the copy and the product by torch).
case "${1:-a}" in
b)
  PYTHONPATH=. timeout 300 python bench/gluon_gpu.py $G/runs/run26/rms_norm_bwd-compute-one-stage $G/rms_norm_bwd \
    $G/sibling_loops --out $OUT/gpu26b.json 2>&1 | tee $OUT/run26b.log
  PYTHONPATH=. timeout 200 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "rms_norm_bwd" 2>&1 | tail -3 | tee -a $OUT/run26b.log
  ;;
esac
#   c: guarded_gemm's copies: the committed kernel (a 4-warp cp.async producer, 3-deep rings) beside the same schedule
#      with an 8-warp producer, with 4-deep rings, and both (runs/run26/c/, made in a worktree with COPY_WARPS and the
#      copied rings' depth edited by hand).
case "${1:-a}" in
c)
  PYTHONPATH=. timeout 400 python bench/gluon_gpu.py $G/guarded_gemm $G/runs/run26/c/guarded_gemm-w8 \
    $G/runs/run26/c/guarded_gemm-d4 $G/runs/run26/c/guarded_gemm-w8-d4 --out $OUT/gpu26c.json 2>&1 | tee $OUT/run26c.log
  ;;
esac
#   d: guarded_gemm with an 8-warp producer and 5-deep rings; pointer_gemm (tutorial 03, 128 x 256, the committed rule:
#      3 deep) beside 4-deep rings (its 8-warp producer does not compile: ptxas, as in run 19b).
case "${1:-a}" in
d)
  PYTHONPATH=. timeout 400 python bench/gluon_gpu.py $G/runs/run26/c/guarded_gemm-w8-d4 $G/runs/run26/c/guarded_gemm-w8-d5 \
    $G/runs/run26/c/pointer_gemm $G/runs/run26/c/pointer_gemm-d4 --out $OUT/gpu26d.json 2>&1 | tee $OUT/run26d.log
  ;;
esac
#   e: layer_norm (Triton's tutorial 05: three loops, mean and rstd stored between the second and the third) against
#      Triton; then every committed kernel's GPU test (guarded_gemm's new producer, the regenerated docstrings).
case "${1:-a}" in
e)
  PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $G/layer_norm --out $OUT/gpu26e.json 2>&1 | tee $OUT/run26e.log
  PYTHONPATH=. timeout 380 python -m pytest -q tests/gpu/test_gpu_gluon.py 2>&1 | tail -8 | tee -a $OUT/run26e.log
  ;;
esac
#   f: softmax_rows (Triton's tutorial 02: a loop over rows carrying no value, its trip count differing between
#      programs; its generated source did not parse before this run's fix) against Triton, and its GPU test.
case "${1:-a}" in
f)
  PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $G/softmax_rows --out $OUT/gpu26f.json 2>&1 | tee $OUT/run26f.log
  PYTHONPATH=. timeout 200 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "softmax_rows" 2>&1 | tail -3 | tee -a $OUT/run26f.log
  ;;
esac
#   g: the one-partition kernels with their pointer loads issued prefetch_depth iterations ahead (enough to cover a
#      load's latency with the schedule's iterations; the loop as written where it runs fewer than stages - 1),
#      made in a worktree (runs/run26/g/*-prefetch), each beside the committed kernel (one iteration ahead).
case "${1:-a}" in
g)
  P=$G/runs/run26/g
  PYTHONPATH=. timeout 580 python bench/gluon_gpu.py $G/softmax_rows $P/softmax_rows-prefetch $G/layer_norm \
    $P/layer_norm-prefetch $G/rms_norm_bwd $P/rms_norm_bwd-prefetch $G/online_softmax $P/online_softmax-prefetch \
    $G/row_sumsq $P/row_sumsq-prefetch $G/row_absmax $P/row_absmax-prefetch $G/cross_entropy $P/cross_entropy-prefetch \
    --out $OUT/gpu26g.json 2>&1 | tee $OUT/run26g.log
  ;;
esac
