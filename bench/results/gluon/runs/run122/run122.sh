#!/usr/bin/env bash
# Run 122 on the GPU machine (session 52): the session's two sweeps' nine generated kernels first on the GPU, and the
# three kernels whose cp.async condition lost arguments to a loop's induction variable (conv_implicit_gemm: IN_H, IN_W,
# OUT_H, OUT_W) or to the per-address alignment (gptq_gemm: its bit width 4; FBGEMM's array-jagged bmm: its transpose
# flag), which had sent their launches through registers.
set -u
G=bench/results/gluon
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 250 python bench/gluon_gpu.py $G/conv_implicit_gemm $G/gptq_gemm \
  $G/fbgemm_array_jagged_bmm $G/fbgemm_jagged_jagged_bmm $G/minference_vertical_slash $G/torchtitan_cg_persistent \
  --sizes 4096 --timeout 50 --out $OUT/gpu122-a.json 2>&1 | tee -a $OUT/run122.log
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 250 python bench/gluon_gpu.py $G/flagattn_bwd_kv \
  $G/tritonbench_jagged_softmax $G/memory_embedding_bag $G/memory_embedding_bag_rev_grad $G/anemoi_graph_transformer \
  --sizes 4096 --timeout 50 --out $OUT/gpu122-b.json 2>&1 | tee -a $OUT/run122.log
