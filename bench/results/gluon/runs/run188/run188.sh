#!/usr/bin/env bash
# Run 188 (prepared in session 70, not yet run; write its prediction in NOTES.md before running it): the six corpus
# kernels added in session 70, their committed Gluon variants' first GPU run (correctness: NaN-poisoned outputs, two
# seeds; speed against Triton's default), and the inductor layer norm and vLLM's paged attention under
# --issued-loads again (run 187: x1.16 and x1.11 of their committed kernels; its record was not written), to adopt
# them as the committed variants if the gains hold. One device call; the record is written after each kernel.
set -u
G=bench/results/gluon; R=$G/runs/run188
DIRS=""
for v in noisy_topk_gating erf_gelu_bitcast_rows hqq_bits_dequant_gemm nan_max_rows fp64_rownorm_bf16_atomic \
         lp_pool_argmax_int16; do
  DIRS="$DIRS $G/$v"
done
for v in inductor_layer_norm vllm_paged_attention_2d; do
  DIRS="$DIRS $G/$v $G/runs/run187/$v-il"
done
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 500 python bench/gluon_gpu.py $DIRS --sizes 4096 --timeout 60 \
  --out $OUT/gpu188.json 2>&1 | tee $OUT/run188.log | grep -vi "warning"
