#!/usr/bin/env bash
# Run 163a (session 62): the row kernels solved again with the layout-aware reduction cost (commit f95fa35c), each
# beside its kernel from before (runs/run163/old/LABEL: label LABEL-old), new then old, in one process.
set -u
G=bench/results/gluon
D=""; for l in argmax_rows cumsum_rows decode_attention fla_chunk_bwd_dqkwg fla_fused_recurrent_delta_rule fla_fused_recurrent_dplr fla_rwkv6_intra_sub_intra flashinfer_sampling_from_probs fused_recurrent fused_recurrent_gla group_quant_fp8 liger_dyt_bwd; do D="$D $G/$l bench/results/gluon/runs/run163/old/$l"; done
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 560 python bench/gluon_gpu.py $D --sizes 4096 --timeout 40 --no-baselines \
  --out $OUT/gpu163a.json 2>&1 | tee $OUT/run163a.log | grep -vi "warning"
