#!/usr/bin/env bash
# Run 72 on the GPU machine (session 41): probes (probe/, untracked) of the two MoE kernels after run 71: vLLM's with
# its B tiles copied by cp.async as A's (no TMA box: the launcher's TMA_BOXES off), and with rings 2 deeper (6 buffers:
# one CTA per SM); SGLang's at a launch limit of 128 registers (two CTAs per SM) now that its conversion is gone.
set -u
for v in vllm_notma vllm_fused_moe_d2 sglang_2cta_v2; do
  PYTHONPATH=. timeout 90 python bench/gluon_gpu.py probe/$v --sizes 16384 --out /tmp/g72-$v.json 2>&1 | tail -3 \
    | tee -a $OUT/run72.log
  cat /tmp/g72-$v.json >> $OUT/gpu72.jsonl 2>/dev/null; echo >> $OUT/gpu72.jsonl
done
