#!/usr/bin/env bash
# Run 123 on the GPU machine (session 52): run 122's four kernels whose SMALL problems the launcher refused, again; gptq_gemm
# and FBGEMM's array-jagged bmm with every copy through the producer's registers (TWILL_COPY_OFF=1), against run 122's
# cp.async figures.
set -u
G=bench/results/gluon
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 230 python bench/gluon_gpu.py $G/torchtitan_cg_persistent $G/flagattn_bwd_kv \
  $G/memory_embedding_bag $G/memory_embedding_bag_rev_grad --sizes 4096 --timeout 50 --out $OUT/gpu123-a.json 2>&1 \
  | tee -a $OUT/run123.log
TWILL_COPY_OFF=1 TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $G/gptq_gemm \
  $G/fbgemm_array_jagged_bmm --sizes 4096 --timeout 50 --out $OUT/gpu123-b.json 2>&1 | tee -a $OUT/run123.log
