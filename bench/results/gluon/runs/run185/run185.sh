#!/usr/bin/env bash
# Run 185 (session 69): four kernels whose --extra-stages 1 solve ends in a different one-partition kernel (NF4 GEMV and
# FLA's HGRN output: one stage, loads in their readers' stage, at a lower I than the committed; TE's pow2 fp8 quant and
# vLLM's causal conv1d: more stages) beside their committed kernels and Triton's default; online_softmax's loop run,
# which now traces at the timed problem where the small one records nothing. One device call.
set -u
G=bench/results/gluon; R=$G/runs/run185
DIRS=""
for v in nf4_dequant_gemv fla_hgrn_chunk_o te_pow2_fp8_e5m2_quant vllm_causal_conv1d_fwd; do
  DIRS="$DIRS $G/$v $R/$v-es1"
done
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 400 python bench/gluon_gpu.py $DIRS --sizes 4096 --timeout 45 \
  --out $OUT/gpu185.json 2>&1 | tee $OUT/run185.log | grep -vi "warning"
PYTHONPATH=. timeout 150 python -m twill validate tests/corpus/online_softmax.py --arch h200 --schedule $G/online_softmax \
  -o /tmp/validate-online_softmax --loops-only 2>&1 | tee $OUT/run185-online_softmax.log | tail -14
cp /tmp/validate-online_softmax/validation.json $OUT/validation-online_softmax.json 2>/dev/null
