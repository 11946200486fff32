#!/usr/bin/env bash
# Run 80 (session 42): chunk_output as the short-loop rule now writes it (one partition: 2 iterations of K a CTA)
# against the committed kernel (a producer), one Triton baseline; four kernels of this session's sweeps, first run on
# the GPU (vLLM's LoRA expand with its three early returns, LightLLM's RoPE + KV-cache write naming its own v0/v1,
# FBGEMM's flat persistent fp8 row-wise GEMM with the accumulator flag, vLLM's Mamba-2 SSD chunk scan).
set -u
G=bench/results/gluon
run() { PYTHONPATH=. timeout 120 python bench/gluon_gpu.py "$@" 2>&1 | tail -5 | tee -a $OUT/run80.log; }
run $G/chunk_output probe/r80/chunk_output_own --sizes 16384 --out $OUT/gpu80-chunk_output.json
for v in vllm_lora_expand lightllm_rope_destindex_kv fbgemm_fp8_row_persistent vllm_ssd_chunk_scan; do
  if [ $SECONDS -gt 420 ]; then echo "$v: not run (past 420 s)" | tee -a $OUT/run80.log; continue; fi
  run probe/r80/$v --sizes 16384 --out $OUT/gpu80-$v.json
done
