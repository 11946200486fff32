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
