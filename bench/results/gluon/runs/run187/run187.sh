#!/usr/bin/env bash
# Run 187 (session 70): ten kernels whose --issued-loads solve (a pointer load its readers issue holds them for its
# issue, not its latency) writes a different kernel body, each beside its committed kernel and Triton's default; loop
# runs of three of them (awq, vLLM's paged attention, Mamba-2's chunk state) to set their new schedules' predicted
# period against the measured one. One device call.
set -u
G=bench/results/gluon; R=$G/runs/run187
DIRS=""
for v in awq_gemm deepseek_fp8_gemm geglu_rows inductor_layer_norm kmeans_assign mamba_chunk_state nf4_dequant_gemv \
         token_quant_fp8 vllm_paged_attention_2d xformers_bias_dropout_residual; do
  DIRS="$DIRS $G/$v $R/$v-il"
done
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 330 python bench/gluon_gpu.py $DIRS --sizes 4096 --timeout 45 \
  --out $OUT/gpu187.json 2>&1 | tee $OUT/run187.log | grep -vi "warning"
v() {   # label kernel-file
  PYTHONPATH=. timeout 60 python -m twill validate "$2" --arch h200 --schedule $R/$1-il -o /tmp/validate-$1 --loops-only \
    2>&1 | tee -a $OUT/run187-loops.log | grep -E "per iteration|loop run|PASS|FAIL|error" | head -6
  cp /tmp/validate-$1/validation.json $OUT/validation-$1-il.json 2>/dev/null
}
v awq_gemm tests/corpus/awq_gemm.py
v vllm_paged_attention_2d tests/corpus/vllm_paged_attention_2d.py
v mamba_chunk_state tests/corpus/mamba_chunk_state.py
