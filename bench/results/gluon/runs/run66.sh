#!/usr/bin/env bash
# Run 66 on the GPU machine (session 40): run 65's two changed kernels checked and timed; probes (probe/, not
# committed: bench/ring_depth_probe.py and two --arg ...:16 generations, NOTES.md) checked and timed beside them.
set -u
G=bench/results/gluon
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run66.log
for d in $G/moe_align_block_size $G/unsloth_swiglu_bwd probe/flaggems_softmax_inner_div probe/attorch_layer_norm_div \
         probe/vllm_scaled_mm_d1 probe/vllm_scaled_mm_d2 probe/inductor_persistent_tma_mm_d1 probe/mamba_bmm_chunk_d2 \
         probe/fla_gated_delta_h_d1; do
  v=$(basename $d)
  if [ $SECONDS -gt 500 ]; then echo "$v: not run (past 500 s)" | tee -a $OUT/run66.log; continue; fi
  PYTHONPATH=. timeout 90 python bench/gluon_gpu.py $d --sizes 16384 --out /tmp/g66-$v.json 2>&1 | tail -3 \
    | tee -a $OUT/run66.log
  cat /tmp/g66-$v.json >> $OUT/gpu66.jsonl 2>/dev/null; echo >> $OUT/gpu66.jsonl
done
