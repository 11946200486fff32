#!/usr/bin/env bash
# Run 74 (session 41): probes. torchao int8 weight-only with its int8 B tiles copied by the consumer with cp.async
# (copy_wgmma), vLLM MoE as one 4-warp partition loading its own tiles (own_tiles, Triton's shape, several CTAs per SM).
set -u
for v in torchao_cw vllm_own; do
  PYTHONPATH=. timeout 90 python bench/gluon_gpu.py probe/$v --sizes 16384 --out /tmp/g74-$v.json 2>&1 | tail -3 \
    | tee -a $OUT/run74.log
  cat /tmp/g74-$v.json >> $OUT/gpu74.jsonl 2>/dev/null; echo >> $OUT/gpu74.jsonl
done
