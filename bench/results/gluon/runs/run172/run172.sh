#!/usr/bin/env bash
# Run 172 (session 64): the three corpus kernels added second this session (TE-style fp8 e5m2 quantizer, FLA-style
# reverse cumsum over block pointers walking back, SGLang-style w8a8 block int8 GEMM), and tk_topk_forward as the
# integer pipes' costs re-solved it beside its committed kernel from before (runs/run172/old, label -old).
set -u
G=bench/results/gluon; R=$G/runs/run172
D="$G/te_pow2_fp8_e5m2_quant $G/fla_reverse_cumsum_norm $G/sglang_w8a8_block_int8_gemm"
D="$D $G/tk_topk_forward $R/old/tk_topk_forward"
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 420 python bench/gluon_gpu.py $D --sizes 4096 --timeout 60 \
  --out $OUT/gpu172.json 2>&1 | tee $OUT/run172.log | grep -vi "warning"
