#!/usr/bin/env bash
# Run 118 on the GPU machine (session 51): the session's two sweeps (nine kernels), first on the GPU: correctness
# (two seeds, NaN-poisoned, SMALL and PROBLEM) and speed against Triton's configs; the GPU test of `twill validate`
# on the Gluon GEMM with the in-kernel clock; the FA backward's whole-kernel cycles and clock.
set -u
G=bench/results/gluon
PYTHONPATH=. timeout 170 python bench/gluon_gpu.py $G/fla_recompute_w_u $G/stk_dsd $G/fla_hgrn_chunk_o \
  $G/mamba_bmm_chunk_bwd $G/fla_gla_intra_sub_inter --sizes 16384 --timeout 60 --out $OUT/gpu118-c.json 2>&1 \
  | tee -a $OUT/run118.log
PYTHONPATH=. timeout 130 python bench/gluon_gpu.py $G/vllm_paged_attention_2d $G/vllm_rocm_flash_attn_fwd \
  $G/deepseek_fp8_gemm $G/sglang_ep_gather --sizes 16384 --timeout 60 --out $OUT/gpu118-b.json 2>&1 \
  | tee -a $OUT/run118.log
PYTHONPATH=. timeout 50 python bench/clock_probe.py $G/fa_bwd --iterations-per-tile 256 --sizes 16384 --calls 10 \
  --out $OUT/probe-fa_bwd.json 2>&1 | tee -a $OUT/run118.log
PYTHONPATH=. timeout 140 python -m pytest -q -x tests/gpu/test_gpu_validate.py -k validate_gluon_gemm 2>&1 \
  | tail -15 | tee -a $OUT/run118.log
