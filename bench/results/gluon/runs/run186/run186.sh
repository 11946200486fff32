#!/usr/bin/env bash
# Run 186 (session 69): loop runs (`twill validate --loops-only`) of twelve kernels whose consumers issue pointer loads,
# where session 69's replay (a load blocks its first reader, not its line) moves the prediction most, to test it
# on kernels it was not written against. Only the log and each validation.json come back.
set -u
G=bench/results/gluon
v() {   # label kernel-file
  PYTHONPATH=. timeout 100 python -m twill validate "$2" --arch h200 --schedule $G/$1 -o /tmp/validate-$1 --loops-only \
    2>&1 | tee -a $OUT/run186-loops.log | grep -E "per iteration|loop run|PASS|FAIL|error" | head -6
  cp /tmp/validate-$1/validation.json $OUT/validation-$1.json 2>/dev/null
}
v rope_embedding tests/corpus/rope_embedding.py
v inductor_layer_norm tests/corpus/inductor_layer_norm.py
v nf4_dequant_gemv tests/corpus/nf4_dequant_gemv.py
v awq_gemm tests/corpus/awq_gemm.py
v w4a16_gemm tests/corpus/w4a16_gemm.py
v deepseek_fp8_gemm tests/corpus/deepseek_fp8_gemm.py
v vllm_paged_attention_2d tests/corpus/vllm_paged_attention_2d.py
v fused_recurrent tests/corpus/fused_recurrent.py
v liger_rms_norm_bwd tests/corpus/liger_rms_norm_bwd.py
v geglu_rows tests/corpus/geglu_rows.py
v mamba_chunk_state tests/corpus/mamba_chunk_state.py
v xformers_bias_dropout_residual tests/corpus/xformers_bias_dropout_residual.py
