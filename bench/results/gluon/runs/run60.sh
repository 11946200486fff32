#!/usr/bin/env bash
# Run 60 on the GPU machine (session 39): the 17 kernels of sessions 38's two offline sweeps of public styles, first
# run on the GPU (they generated and compiled offline only). `run60.sh check`: their GPU tests (five pytest shards side
# by side; correctness on both seeds at SMALL and PROBLEM, bit-identical twice), then the first half timed;
# `run60.sh time2`: the second half timed. Each timed from CUDA graphs against Triton's best of the same file.
# `run60.sh recheck`: after the kernel files' fixes (references built on the CPU, SMALL problems that broke the
# files' constexprs, a launch that contradicted its spec), the first half's four failures and the second half checked
# and timed (bench/gluon_gpu.py checks as the GPU test does: two seeds, SMALL and PROBLEM, twice each).
set -u
G=bench/results/gluon
NEW="liger_ce_softcap liger_rms_norm_bwd unsloth_ce_softcap vllm_decode_stage1 assume_gemm_gelu batched_dot3d
fla_chunk_h fla_chunk_o mamba_chunk_state tut06_attn_fwd tut09_desc_persistent_ws extend_attention
fused_recurrent_gla grouped_matmul int4_gemm rope_embedding inductor_layer_norm"
FIRST="liger_ce_softcap liger_rms_norm_bwd unsloth_ce_softcap vllm_decode_stage1 assume_gemm_gelu batched_dot3d
fla_chunk_h fla_chunk_o"
SECOND="mamba_chunk_state tut06_attn_fwd tut09_desc_persistent_ws extend_attention fused_recurrent_gla grouped_matmul
int4_gemm rope_embedding inductor_layer_norm"
RECHECK_FIRST="liger_rms_norm_bwd vllm_decode_stage1 fla_chunk_h fla_chunk_o"
T=tests/gpu/test_gpu_gluon.py::test_generated_kernel_is_correct_and_finishes
time_them() {     # each kernel's record appended to one file (the machine returns eight files); none started past 520 s
  for v in $1; do
    if [ $SECONDS -gt 520 ]; then echo "$v: not timed (past 520 s)" | tee -a $OUT/run60.log; continue; fi
    PYTHONPATH=. timeout 100 python bench/gluon_gpu.py $G/$v --out /tmp/gpu60-$v.json 2>&1 | tail -2 \
      | tee -a $OUT/run60.log
    cat /tmp/gpu60-$v.json >> $OUT/gpu60-$2.jsonl 2>/dev/null; echo >> $OUT/gpu60-$2.jsonl
  done
}
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run60.log
if [ "${1:-check}" = check ]; then
  echo $NEW | tr ' ' '\n' > /tmp/labels
  split -n r/5 /tmp/labels /tmp/shard.
  for s in /tmp/shard.??; do
    ( PYTHONPATH=. timeout 300 python -m pytest -q -p no:cacheprovider $(sed "s|^|$T[|; s|$|]|" $s) \
        > $s.log 2>&1 ) &
  done
  wait
  for s in /tmp/shard.??.log; do grep -E "^(FAILED|ERROR)|passed|failed" $s; done | tee -a $OUT/run60.log
  cat /tmp/shard.??.log > $OUT/run60-pytest.log
  time_them "$FIRST" first
elif [ "$1" = recheck ]; then
  time_them "$RECHECK_FIRST $SECOND" recheck
else
  time_them "$SECOND" second
fi
