#!/usr/bin/env bash
# Run 129, second call: the sweeps' six generated kernels (G: Mamba-2's chunk-scan dx backward, FLA's WY backward,
# FLA's dqkwg; H: torchao's HQQ mixed mm, FlagGems' weight-norm backward and peeled mm): their GPU test (SMALL and
# PROBLEM, two seeds), then each against Triton's default at its PROBLEM.
set -u
G=bench/results/gluon
K="mamba_chunk_scan_bwd_dx or fla_wy_repr_bwd or fla_chunk_bwd_dqkwg or torchao_hqq_mixed_mm or flaggems_weight_norm_bwd or flaggems_mm_peeled"
PYTHONPATH=. timeout 200 python -m pytest -q -p no:cacheprovider tests/gpu/test_gpu_gluon.py -k "$K" 2>&1 | tail -15 \
  | tee -a $OUT/run129b.log
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 300 python bench/gluon_gpu.py $G/mamba_chunk_scan_bwd_dx $G/fla_wy_repr_bwd \
  $G/fla_chunk_bwd_dqkwg $G/torchao_hqq_mixed_mm $G/flaggems_weight_norm_bwd $G/flaggems_mm_peeled --sizes 4096 \
  --timeout 40 --out $OUT/gpu129-b2.json 2>&1 | tee -a $OUT/run129b.log
