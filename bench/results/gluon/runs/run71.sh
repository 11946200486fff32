#!/usr/bin/env bash
# Run 71 on the GPU machine (session 41): SGLang's fp8 MoE with its scale row converted before the broadcast (and
# solved again with the conversion's cost), Mamba's bmm at two CTAs per SM, checked and timed; vLLM's fused MoE profiled
# per partition at its timed size (probe/vllm_prof, untracked: the corpus file with PROFILE_PROBLEM = PROBLEM).
set -u
G=bench/results/gluon
for v in sglang_fused_moe_fp8 mamba_bmm_chunk; do
  PYTHONPATH=. timeout 90 python bench/gluon_gpu.py $G/$v --sizes 16384 --out /tmp/g71-$v.json 2>&1 | tail -3 \
    | tee -a $OUT/run71.log
  cat /tmp/g71-$v.json >> $OUT/gpu71.jsonl 2>/dev/null; echo >> $OUT/gpu71.jsonl
done
PYTHONPATH=. timeout 200 python bench/gluon_profile.py probe/vllm_prof --out $OUT/prof --budget 60 --timeout 150 2>&1 \
  | tail -25 | tee -a $OUT/run71.log
