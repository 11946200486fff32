#!/usr/bin/env bash
# Run 58 on the GPU machine (session 38): vLLM's prefix-prefill attention (the cached context read through the block
# table from the paged KV cache, then the new tokens causally through other pointers): refused before (no ring of the
# first loop streams the second loop's V); now one partition loading each loop's tiles itself. Checked and timed
# against Triton's compile of the same file; then its GPU test.
set -u
G=bench/results/gluon
PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $G/vllm_prefix_prefill --out $OUT/gpu58-vllm_prefix_prefill.json 2>&1 \
  | tail -4 | tee -a $OUT/run58.log
PYTHONPATH=. timeout 150 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "vllm_prefix_prefill" 2>&1 | tail -3 \
  | tee -a $OUT/run58.log
