#!/usr/bin/env bash
# Run 130 on the GPU machine (session 54): the three sweep kernels whose files call `kernel.fn[grid]` or read
# `kernel.best_config` (run 129), now answered by the generated module's `kernel`; their GPU test and speed against
# Triton's default; the FA forward and the GEMM as regenerated (every module's host side changed) at one size.
set -u
G=bench/results/gluon
K="mamba_chunk_scan_bwd_dx or flaggems_weight_norm_bwd or flaggems_mm_peeled"
PYTHONPATH=. timeout 150 python -m pytest -q -p no:cacheprovider tests/gpu/test_gpu_gluon.py -k "$K" 2>&1 | tail -6 \
  | tee -a $OUT/run130.log
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $G/mamba_chunk_scan_bwd_dx \
  $G/flaggems_weight_norm_bwd $G/flaggems_mm_peeled --sizes 4096 --timeout 40 --out $OUT/gpu130-a.json 2>&1 \
  | tee -a $OUT/run130.log
PYTHONPATH=. timeout 90 python bench/gluon_gpu.py $G/fa3 $G/gemm --sizes 16384 --timeout 40 --no-baselines \
  --out $OUT/gpu130-b.json 2>&1 | tee -a $OUT/run130.log
# the two MoE kernels whose TMA box coordinates the sweep's int64 fix now casts to int32 (their device code changed)
PYTHONPATH=. timeout 80 python bench/gluon_gpu.py $G/vllm_fused_moe $G/sglang_fused_moe_fp8 --sizes 4096 --timeout 35 \
  --no-baselines --out $OUT/gpu130-c.json 2>&1 | tee -a $OUT/run130.log
