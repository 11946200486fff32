#!/usr/bin/env bash
# Run 73 on the GPU machine (session 41): the kernels the two-CTA plan now halves (a consumer's estimated registers
# within REG_OVERHEAD of half the file, ptxas clean under the halved limit; a broadcast row counted as the threads hold
# it): SGLang's fp8 MoE and tail_gemm, checked and timed.
set -u
G=probe/r73
for v in sglang_fused_moe_fp8 tail_gemm; do
  PYTHONPATH=. timeout 90 python bench/gluon_gpu.py $G/$v --sizes 16384 --out /tmp/g73-$v.json 2>&1 | tail -3 \
    | tee -a $OUT/run73.log
  cat /tmp/g73-$v.json >> $OUT/gpu73.jsonl 2>/dev/null; echo >> $OUT/gpu73.jsonl
done
