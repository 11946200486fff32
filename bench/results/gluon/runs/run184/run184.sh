#!/usr/bin/env bash
# Run 184 (session 69): four kernels whose joint search climbed past their first I, re-solved with --extra-stages 1
# (two stages where the default route held one), beside their committed kernels and Triton's default; the one-group
# square attention as the route writes it now (3-deep rings); online_softmax's loop run again, its unreadable trace
# now reported with what Proton printed. One device call.
set -u
G=bench/results/gluon; R=$G/runs/run184
DIRS=""
for v in mamba_bmm_chunk mamba_bmm_chunk_bwd chunk_scan grouped_decode_attention square_attention-one-group; do
  DIRS="$DIRS $G/$v $R/$v-es1"
done
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 420 python bench/gluon_gpu.py $DIRS --sizes 4096 --timeout 45 \
  --out $OUT/gpu184.json 2>&1 | tee $OUT/run184.log | grep -vi "warning"
PYTHONPATH=. timeout 120 python -m twill validate tests/corpus/online_softmax.py --arch h200 --schedule $G/online_softmax \
  -o /tmp/validate-online_softmax --loops-only 2>&1 | tee $OUT/run184-online_softmax.log | tail -12
cp /tmp/validate-online_softmax/validation.json $OUT/validation-online_softmax.json 2>/dev/null
