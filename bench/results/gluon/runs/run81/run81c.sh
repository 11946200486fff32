#!/usr/bin/env bash
# Run 81c (session 42): vLLM's LoRA expand, its metadata now built in make_inputs, checked and timed (CUDA graphs)
# against Triton's best of the file.
set -u
PYTHONPATH=. timeout 150 python bench/gluon_gpu.py bench/results/gluon/vllm_lora_expand --sizes 16384 \
  --out $OUT/gpu81c-lora.json 2>&1 | tail -4 | tee $OUT/run81c.log
