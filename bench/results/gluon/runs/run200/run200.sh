#!/usr/bin/env bash
# Run 200 (session 73): run 199's wrong kernel (vLLM's ALiBi prefill: each consumer's own shared buffers, the route
# now writing one partition) and its harness defect (Apex's multi-tensor Adam: its tables made with the inputs).
set -u
G=bench/results/gluon
export TRITON_CACHE_DIR=$(mktemp -d)
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 400 python bench/gluon_gpu.py $G/vllm_alibi_prefill_causal \
  $G/apex_multi_tensor_adam --sizes 4096 --timeout 150 --out $OUT/gpu200.json 2>&1 | tee $OUT/run200.log \
  | grep -vi warning
