#!/usr/bin/env bash
# Run 61 on the GPU machine (session 39): run 60's four kernels left unmeasured or measured unfairly, after their
# files' fixes: gemlite's int4 GEMM (its spec now names the unit strides Triton's launcher specialises; run 60's
# kernel, compiled for any stride, ran x0.27), tutorial 06 (warp_specialize=False, as the tutorial launches it on
# Hopper: Triton 3.6 failed its own compile with it True), SGLang's extend attention (its launch read the longest
# extension from the device, which a CUDA graph's capture refuses) and tutorial 08's grouped GEMM (its device tables
# were copied while capturing). Each checked (two seeds, SMALL and PROBLEM, twice each) and timed from CUDA graphs
# against Triton's best of the same file; the records in one file (the machine returns eight).
set -u
G=bench/results/gluon
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run61.log
for v in int4_gemm tut06_attn_fwd extend_attention grouped_matmul; do
  PYTHONPATH=. timeout 120 python bench/gluon_gpu.py $G/$v --out /tmp/gpu61-$v.json 2>&1 | tail -2 | tee -a $OUT/run61.log
  cat /tmp/gpu61-$v.json >> $OUT/gpu61.jsonl 2>/dev/null; echo >> $OUT/gpu61.jsonl
done
