#!/usr/bin/env bash
# Run 83 (session 43): nine kernels of this session's sweeps, first run on the GPU (gpt-oss's attention with rank-4
# descriptors and sinks, FlagAttention's piecewise attention, NSA's selected-block attention, vLLM's MLA decode,
# FLA's parallel Based, triton.ops' swizzle2d GEMM, Liger's Gemma add + RMSNorm, ROCm's fp8 GEMM with bias and
# activation, GemLite's A16W4 GEMM). Usage: OUT=... bash run83.sh LABEL... (each against Triton's best of its file).
set -u
run() { PYTHONPATH=. timeout 150 python bench/gluon_gpu.py "$@" 2>&1 | tail -5 | tee -a $OUT/run83.log; }
for v in "$@"; do
  if [ $SECONDS -gt 450 ]; then echo "$v: not run (past 450 s)" | tee -a $OUT/run83.log; continue; fi
  run probe/r83/$v --sizes 16384 --out $OUT/gpu83-$v.json
done
