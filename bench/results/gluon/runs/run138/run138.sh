#!/usr/bin/env bash
# Run 138 (session 56): mx_gemm fell from 183.5 TFLOP/s (run 55) to 114.0 (run 137) when solved again: the route now
# keeps its first candidate (I 160, 255 registers, 20 bytes spilled outside the loop: clean by ptxas's count) where it
# had kept the one under 168 registers (I 172; its first four then spilled 84 instructions in the loop). The I 172
# kernel made by today's generator (byte for byte the kernel committed before, below its header) beside the I 160 one.
set -u
G=bench/results/gluon
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $G/mx_gemm $G/runs/run138/kernels/mx_gemm_168 \
  --sizes 4096 --timeout 40 --no-baselines --out $OUT/gpu138.json 2>&1 | tee $OUT/run138.log | grep -v "^\s*$"
