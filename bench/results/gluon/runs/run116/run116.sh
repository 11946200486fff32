#!/usr/bin/env bash
# Run 116 on the GPU machine (session 51): (a) vLLM's fused MoE (x0.66 Triton's best): the committed kernel, its
# persistent form as `--persistent on` writes it (grid min(tiles, SMs) though two CTAs fit an SM), and the same with a
# grid of two CTAs per SM; correctness, then each at K = 1024 (its PROBLEM), 4096 and M = 8192 against Triton's
# configs in rounds (runs/run116/sizes.py): whether the gap is the tiles' prologue and epilogue or the loop; (b) run
# 115's missing figure: the SM clock under the FA forward at N = 16k.
set -u
G=bench/results/gluon
R=$G/runs/run116
PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $G/vllm_fused_moe $R/moe-persist $R/moe-persist2 --timeout 60 \
  --out $OUT/gpu116.json 2>&1 | tee -a $OUT/run116.log
PYTHONPATH=. timeout 150 python $R/sizes.py $G/vllm_fused_moe $R/moe-persist $R/moe-persist2 \
  --problems 'K=1024;K=4096;M=8192' --rounds 5 --out $OUT/sizes116.json 2>&1 | tee -a $OUT/run116.log
PYTHONPATH=. timeout 280 python bench/gpu_clocks.py $G/fa3 --sizes 16384 --cycles 2533 --iterations 16000 \
  --out $OUT/clocks-fa3-16k.json 2>&1 | tee -a $OUT/run116.log
