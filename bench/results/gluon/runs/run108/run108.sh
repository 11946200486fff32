#!/usr/bin/env bash
# Run 108 on the GPU machine (session 50): the column split of a reducer's partial as a generator rule
# (plan.ColumnSplit), the committed FA backward regenerated with it, against run 107's hand-edited split and
# Triton's best; then the six kernels of the session's two sweeps, first on the GPU (default route, committed).
set -u
G=bench/results/gluon
R=$G/runs/run108
PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $G/fa_bwd $G/runs/run107/fa_bwd-split --sizes 16384 \
  --out $OUT/gpu108-bwd.json 2>&1 | tee -a $OUT/run108.log
PYTHONPATH=. timeout 380 python bench/gluon_gpu.py $G/triton_kernels_matmul_ogs $G/te_moe_unpermute \
  $G/inductor_red_outer_sum $G/vllm_causal_conv1d_fwd $G/fla_chunk_bwd_dh $G/liger_tvd --sizes 16384 --timeout 110 \
  --out $OUT/gpu108-sweep.json 2>&1 | tee -a $OUT/run108.log
