#!/usr/bin/env bash
# Run 64 on the GPU machine (session 39): the kernels whose rings the loaded latency deepens (ring_depth: a loop whose
# loads set its II takes its copies' latency as at least loaded_latency = 2200 cycles, run 63). grouped_matmul's new
# kernel is run 63's grouped_matmul_d2 (the same source), not run again. Each checked (two seeds, SMALL and PROBLEM,
# twice each) and timed from CUDA graphs against Triton's best of the same file; records in one file.
set -u
G=bench/results/gluon
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run64.log
for v in int4_gemm lora_shrink bias_attention diagonal_mask_attention prefix_scores sibling_loops; do
  if [ $SECONDS -gt 250 ]; then echo "$v: not run (past 250 s)" | tee -a $OUT/run64.log; continue; fi
  PYTHONPATH=. timeout 90 python bench/gluon_gpu.py $G/$v --sizes 16384 --out /tmp/g64-$v.json 2>&1 | tail -2 \
    | tee -a $OUT/run64.log
  cat /tmp/g64-$v.json >> $OUT/gpu64.jsonl 2>/dev/null; echo >> $OUT/gpu64.jsonl
done
