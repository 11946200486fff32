#!/usr/bin/env bash
# Run 70 on the GPU machine (session 41): the MoE class (SGLang fp8 x0.54, vLLM bf16 x0.68), probes in probe/
# (untracked, made by hand from the committed kernels): the same kernels at 4x the K loop's trip count (is the cost
# per CTA or per iteration?), and SGLang's kernel at a launch limit of 128 registers (two CTAs per SM).
set -u
for v in sglang_k8192 vllm_k4096 sglang_2cta; do
  if [ $SECONDS -gt 300 ]; then echo "$v: not run (past 300 s)" | tee -a $OUT/run70.log; continue; fi
  PYTHONPATH=. timeout 90 python bench/gluon_gpu.py probe/$v --sizes 16384 --out /tmp/g70-$v.json 2>&1 | tail -3 \
    | tee -a $OUT/run70.log
  cat /tmp/g70-$v.json >> $OUT/gpu70.jsonl 2>/dev/null; echo >> $OUT/gpu70.jsonl
done
