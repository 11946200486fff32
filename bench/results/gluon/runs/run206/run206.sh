#!/usr/bin/env bash
# Run 206 (session 78): the six kernels session 78's sweep wrote (nests around the scheduled loop: MegaBlocks' expert
# weight gradient, a block-scaled GEMM skipping zero-scale K blocks, a persistent GEMM carrying a column max across its
# tiles, a CSR segment sum, a k-means centroid update carrying two tiles through an `if`, group RMS statistics
# carrying two vectors), none run on a GPU before, and the four committed kernels whose docstrings changed (their tile
# loop's line), each checked against its reference (two seeds, NaN-poisoned outputs) and timed against Triton's
# default at its PROBLEM.
set -u
G=bench/results/gluon
export TRITON_CACHE_DIR=$(mktemp -d)
L="megablocks_grouped_dw fp8_block_skip_gemm persistent_rowmax_gemm segment_sum_rows kmeans_centroid_update
 grouped_rmsnorm_stats flashinfer_varlen_merge_states memory_embedding_bag_rev_grad te_moe_unpermute block_skip_gemm"
DIRS=$(for k in $L; do echo $G/$k; done)
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 590 python bench/gluon_gpu.py $DIRS --sizes 4096 --timeout 120 \
  --out $OUT/gpu206.json 2>&1 | tee $OUT/run206.log | grep -vi warning
