#!/usr/bin/env bash
# Run 131 on the GPU machine (session 54): the three one-partition kernels with no wgmma whose loops ptxas spilled in,
# now read as spilling (codegen/gluon/sass.py: every innermost loop of a kernel with no wgmma) and so written in one
# stage: FlagGems' weight-norm backward, FLA's fused recurrent GLA, bitsandbytes' NF4 GEMV; each as written before
# (runs/run131/before/, the committed kernels of 7986622) and now, against Triton's default; their GPU test.
set -u
G=bench/results/gluon
B=$G/runs/run131/before
PYTHONPATH=. timeout 120 python -m pytest -q -p no:cacheprovider tests/gpu/test_gpu_gluon.py \
  -k "flaggems_weight_norm_bwd or fused_recurrent_gla or nf4_dequant_gemv" 2>&1 | tail -4 | tee -a $OUT/run131.log
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 260 python bench/gluon_gpu.py $B/flaggems_weight_norm_bwd \
  $G/flaggems_weight_norm_bwd $B/fused_recurrent_gla $G/fused_recurrent_gla $B/nf4_dequant_gemv $G/nf4_dequant_gemv \
  --sizes 4096 --timeout 35 --out $OUT/gpu131.json 2>&1 | tee -a $OUT/run131.log
