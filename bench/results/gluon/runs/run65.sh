#!/usr/bin/env bash
# Run 65 on the GPU machine (session 40): the 20 kernels of session 39's offline sweeps, first run on the GPU. Each
# checked (two seeds, SMALL and PROBLEM, twice each) and timed from CUDA graphs against Triton's best of the same file;
# records appended to one file (the machine returns eight). None started past 480 s.
set -u
G=bench/results/gluon
NEW="vllm_fused_moe tut03_autotune_matmul torchao_int8_wo_mm lightllm_token_att mamba_bmm_chunk
fla_fused_chunk_retention attorch_layer_norm lightllm_context_attention unsloth_swiglu_bwd
inductor_persistent_tma_flatten fla_gated_delta_h flaggems_softmax_inner xformers_splitk_decode vllm_scaled_mm
inductor_log_softmax inductor_persistent_tma_mm vllm_fused_add_rms_norm moe_align_block_size sglang_decode_grouped
liger_layer_norm_bwd"
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run65.log
for v in ${1:-$NEW}; do
  if [ $SECONDS -gt 480 ]; then echo "$v: not run (past 480 s)" | tee -a $OUT/run65.log; continue; fi
  PYTHONPATH=. timeout 90 python bench/gluon_gpu.py $G/$v --sizes 16384 --out /tmp/g65-$v.json 2>&1 | tail -3 \
    | tee -a $OUT/run65.log
  cat /tmp/g65-$v.json >> $OUT/gpu65.jsonl 2>/dev/null; echo >> $OUT/gpu65.jsonl
done
