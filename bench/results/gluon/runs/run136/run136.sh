#!/usr/bin/env bash
# Run 136 (session 56): RWKV-6's intra-sub-block scores (its corpus kernel's diagonal fixed: row j's query) on the GPU;
# then, beside the committed kernels, variants generated here (runs/run136/kernels/, commands in NOTES.md): the fp8
# weight GEMM with its packed asm upcast (x0.57 of Triton in run 135) with its weight tile copied by cp.async, in one
# 8-warp consumer and in two 4-warp consumers; stable-fast's group-norm statistics (x0.72: 164 registers, one CTA an
# SM where Triton's compile holds two) solved in one stage (80 registers, three CTAs an SM).
set -u
G=bench/results/gluon
R=$G/runs/run136/kernels
PYTHONPATH=. timeout 120 python -m pytest -q -p no:cacheprovider tests/gpu/test_gpu_gluon.py -k fla_rwkv6_intra_sub_intra \
  > $OUT/run136-tests.log 2>&1
tail -3 $OUT/run136-tests.log
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 300 python bench/gluon_gpu.py $G/fp8_weight_asm_pack4_gemm $R/fp8_asm_async \
  $R/fp8_asm_async_rows2 $G/sfast_group_norm_stats $R/group_norm_one_stage --sizes 4096 --timeout 40 --no-baselines \
  --out $OUT/gpu136.json 2>&1 | tee $OUT/run136.log | grep -v "^\s*$"
