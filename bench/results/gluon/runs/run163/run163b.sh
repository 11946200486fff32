#!/usr/bin/env bash
# Run 163b (session 62): the row kernels solved again with the layout-aware reduction cost (commit f95fa35c), each
# beside its kernel from before (runs/run163/old/LABEL: label LABEL-old), new then old, in one process.
set -u
G=bench/results/gluon
D=""; for l in liger_layer_norm_bwd liger_rms_norm_bwd reverse_recurrent rms_norm_bwd row_absmax sglang_double_sparsity_decode softmax_rows tk_topk_forward tma_rows tridao_ln_bwd vllm_decode_stage1; do D="$D $G/$l bench/results/gluon/runs/run163/old/$l"; done
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 560 python bench/gluon_gpu.py $D --sizes 4096 --timeout 40 --no-baselines \
  --out $OUT/gpu163b.json 2>&1 | tee $OUT/run163b.log | grep -vi "warning"
