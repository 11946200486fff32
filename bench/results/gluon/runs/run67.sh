#!/usr/bin/env bash
# Run 67 on the GPU machine (session 40): the committed kernels the TMA-rate rings and the wide layouts changed,
# each checked (two seeds, SMALL and PROBLEM, twice) and timed from CUDA graphs against Triton's best of the same file.
set -u
G=bench/results/gluon
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run67.log
for v in vllm_scaled_mm flaggems_softmax_inner block_ptr_gemm conv_implicit_gemm pointer_attention w8a16_gemm \
         sibling_loops sglang_decode_grouped; do
  if [ $SECONDS -gt 420 ]; then echo "$v: not run (past 420 s)" | tee -a $OUT/run67.log; continue; fi
  PYTHONPATH=. timeout 90 python bench/gluon_gpu.py $G/$v --sizes 16384 --out /tmp/g67-$v.json 2>&1 | tail -3 \
    | tee -a $OUT/run67.log
  cat /tmp/g67-$v.json >> $OUT/gpu67.jsonl 2>/dev/null; echo >> $OUT/gpu67.jsonl
done
