#!/usr/bin/env bash
# Run 134 on the GPU machine (session 55): a one-partition kernel's loops allocate their own buffers just before
# each loop (codegen/gluon/kernel.py local_buffers), so sibling loops share bytes: FLA's WY backward compiles to
# 65,536 bytes of shared memory, not 122,880 (2 CTAs an SM, not 1). GPU tests of it, two other kernels whose compiled
# shared memory changed and the session's new corpus kernels (NEW, set below); the WY backward before
# (runs/run134/before/, 3c0c26c) and now; FlagGems' peeled mm as committed and with its A tile copied by cp.async
# (runs/run134/kernels/); each against Triton's default at its PROBLEM.
set -u
G=bench/results/gluon
R=$G/runs/run134
NEW="${NEW:-}"
K="fla_wy_repr_bwd or vllm_prefix_prefill or fla_recompute_w_u${NEW:+ or $NEW}"
PYTHONPATH=. timeout 100 python -m pytest -q -p no:cacheprovider tests/gpu/test_gpu_gluon.py -k "$K" 2>&1 \
  | tail -6 | tee -a $OUT/run134.log
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 80 python bench/gluon_gpu.py $R/before/fla_wy_repr_bwd $G/fla_wy_repr_bwd \
  $G/flaggems_mm_peeled $R/kernels/flaggems_mm_peeled_async $R/kernels/flaggems_mm_peeled_own_async \
  --sizes 4096 --timeout 25 --out $OUT/gpu134.json 2>&1 | tee -a $OUT/run134.log
