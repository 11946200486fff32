#!/usr/bin/env bash
# Run 139 (session 56): the one-partition kernels whose choice the route's one-stage alternative changed (each now
# solved in one stage, more CTAs an SM, ranked per SM) against the kernels committed before (runs/run139/before/),
# each pair back to back, no baselines (each kernel file's latest Triton figure is in the runs' records).
set -u
G=bench/results/gluon
B=$G/runs/run139/before
DIRS=""
for k in sfast_group_norm_stats fla_hgrn_chunk_o vllm_paged_attention_2d decode_attention flaggems_argmax_dim \
         softmax_rows awq_gemm welford_rows anemoi_graph_transformer fla_fused_recurrent_dplr vllm_causal_conv1d_fwd; do
  DIRS="$DIRS $B/$k $G/$k"
done
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 520 python bench/gluon_gpu.py $DIRS --sizes 4096 --timeout 40 --no-baselines \
  --out $OUT/gpu139.json 2>&1 | tee $OUT/run139.log | grep -v "^\s*$"
