#!/usr/bin/env bash
# Run 166 (session 63): the kernels the session's two route changes rewrote, each beside its committed kernel from
# before (runs/run166/old/LABEL: label LABEL-old), new then old, in one process: AMD's dropout attention (the
# consumers' issue floor: one 8-warp consumer for two 4-warp ones) and stable-fast's group norm statistics (the rank's
# tie under the loads' bound: one stage, 3 CTAs an SM, for two stages and 2).
set -u
G=bench/results/gluon; R=$G/runs/run166
D=""; for l in amd_fa_dropout_alibi sfast_group_norm_stats; do D="$D $G/$l $R/old/$l"; done
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 400 python bench/gluon_gpu.py $D --sizes 4096 --timeout 60 \
  --out $OUT/gpu166.json 2>&1 | tee $OUT/run166.log | grep -vi "warning"
