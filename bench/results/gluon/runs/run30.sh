#!/usr/bin/env bash
# Run 30 on the GPU machine (session 28): the consumers' own cp.async copies of the pointer tiles they read in
# registers on the way to a dot (plan.AsyncTile: mma.sync and FMA operands in the layout ldmatrix reads, an int8
# weight tile), and AWQ's tiles prefetched a stage ahead (its K mask's carried offset moved with it).
#   c: scratch_buffer (tl.debug_barrier twice: gl.thread_barrier) and awq_gemm with A read through Triton's swizzle.
#   a: the five kernels timed against Triton's best, their GPU tests; then their checks with every copy taken
#      through registers (TWILL_COPY_OFF=1: the path of a launch too little aligned for cp.async).
set -u
G=bench/results/gluon
K="awq_gemm w8a16_gemm grouped_decode_attention fused_moe_decode ieee_gemm"
case "${1:-a}" in
a)
  PYTHONPATH=. timeout 560 python bench/gluon_gpu.py $(for k in $K; do echo $G/$k; done) --out $OUT/gpu30a.json 2>&1 \
    | tee -a $OUT/run30a.log
  ;;
b)
  PYTHONPATH=. timeout 400 python -m pytest -q tests/gpu/test_gpu_gluon.py \
    -k "awq_gemm or w8a16_gemm or grouped_decode_attention or fused_moe_decode or ieee_gemm" 2>&1 | tail -8 \
    | tee -a $OUT/run30b.log
  for k in $K; do
    TWILL_COPY_OFF=1 PYTHONPATH=. timeout 120 python bench/gluon_gpu.py --one $G/$k --sizes 1024 2>&1 \
      | grep '^{' | python -c "import json,sys; r=json.loads(sys.stdin.read()); print('$k registers path:', r['pass'], [c['rel_err'] for c in r['checks']])" \
      | tee -a $OUT/run30b.log
  done
  ;;
c)
  PYTHONPATH=. timeout 400 python bench/gluon_gpu.py $G/scratch_buffer $G/awq_gemm --out $OUT/gpu30c.json 2>&1 \
    | tee -a $OUT/run30c.log
  PYTHONPATH=. timeout 300 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "scratch_buffer or awq_gemm" 2>&1 \
    | tail -8 | tee -a $OUT/run30c.log
  ;;
esac
