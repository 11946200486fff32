#!/usr/bin/env bash
# Run 68 on the GPU machine (session 40): three kernels of the session's sweeps, first run on the GPU: checked (two
# seeds, SMALL and PROBLEM, twice) and timed from CUDA graphs against Triton's best of the same file.
set -u
G=bench/results/gluon
for v in vllm_unified_attention liger_geglu_fwd streamk_gemm; do
  if [ $SECONDS -gt 200 ]; then echo "$v: not run (past 200 s)" | tee -a $OUT/run68.log; continue; fi
  PYTHONPATH=. timeout 80 python bench/gluon_gpu.py $G/$v --sizes 16384 --out /tmp/g68-$v.json 2>&1 | tail -3 \
    | tee -a $OUT/run68.log
  cat /tmp/g68-$v.json >> $OUT/gpu68.jsonl 2>/dev/null; echo >> $OUT/gpu68.jsonl
done
