#!/usr/bin/env bash
# Run 36 on the GPU machine (session 34): three constructs of public kernels, and where D = 64 attention's time goes.
#   a: reverse_recurrent (FLA's recurrent backward: a loop with a negative step, its short-loop copy converting the
#      compact loads), swiglu_gemm (two dots sharing A, Liger/unsloth style), embedding_bwd (tl.atomic_add in the loop):
#      each checked (two seeds; SMALL and PROBLEM; NaN-poisoned) and timed against Triton's own compile of the file;
#   b: their GPU tests;
#   c: PC sampling (ncu) of pointer_attention (D = 64) at 4 warps (committed) and 8 warps (run 32d), N = 16k: where
#      the ~1600 cycles an iteration go that the model (637) does not see.
set -u
G=bench/results/gluon
NEW="reverse_recurrent swiglu_gemm embedding_bwd"
case "${1:-a}" in
a)
  python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
    | tee -a $OUT/run36a.log
  for k in $NEW; do
    PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $G/$k --out $OUT/gpu36a-$k.json 2>&1 | tail -8 \
      | tee -a $OUT/run36a.log
  done
  ;;
b)
  PYTHONPATH=. timeout 400 python -m pytest -q tests/gpu/test_gpu_gluon.py \
    -k "$(echo $NEW | sed 's/ / or /g')" 2>&1 | tail -6 | tee -a $OUT/run36b.log
  ;;
c)
  PYTHONPATH=. timeout 400 python bench/gluon_stalls.py $G/pointer_attention \
    bench/results/gluon/runs/run32/d/pointer_attention-w8 --out $OUT/stalls --problem '{"N": 16384}' 2>&1 \
    | tail -60 | tee -a $OUT/run36c.log
  ;;
esac
# d: after a (reverse_recurrent failed to compile at T = 1): the guards read the program id, scalar casts through
#    gl.cast; 19 committed kernels regenerated. reverse_recurrent checked and timed again, then the GPU tests of every
#    regenerated kernel.
case "${1:-a}" in
d)
  PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $G/reverse_recurrent --out $OUT/gpu36d-reverse_recurrent.json \
    2>&1 | tail -4 | tee -a $OUT/run36d.log
  CHANGED="fa_bwd fa_causal rms_norm_bwd cross_entropy scratch_buffer layer_norm softmax_rows decode_attention geglu_rows
    block_ptr_gemm grouped_decode_attention chunk_state fused_moe_decode diagonal_mask_attention fused_recurrent
    varlen_attention dropout_rows embedding_bwd"
  PYTHONPATH=. timeout 380 python -m pytest -q tests/gpu/test_gpu_gluon.py \
    -k "$(echo $CHANGED | sed 's/ / or /g')" 2>&1 | tail -6 | tee -a $OUT/run36d.log
  ;;
esac
# e: the causal kernel's speed after its guard read the program id (d: correct): fa_causal at N = 1k, 4k, 16k against
#    cuDNN and Triton, as run 21a.
case "${1:-a}" in
e)
  PYTHONPATH=. timeout 400 python bench/gluon_gpu.py $G/fa_causal --out $OUT/gpu36e-fa_causal.json 2>&1 | tail -6 \
    | tee -a $OUT/run36e.log
  ;;
esac
