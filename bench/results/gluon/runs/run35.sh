#!/usr/bin/env bash
# Run 35 on the GPU machine (session 33): eight constructs of public kernels the Gluon back end did not write before
#   (varlen attention's bounds from memory, a paged KV cache's block table, tl.rand's Philox, tl.split / tl.join,
#   a two-tensor associative scan, tl.gather, inline PTX, an unrolled K loop).
#   a: each generated kernel checked (two seeds; SMALL and PROBLEM; NaN-poisoned outputs) and timed against Triton's
#      own compile of the file (its default and num_stages 2-4), then their GPU tests.
set -u
G=bench/results/gluon
NEW="varlen_attention paged_prefill dropout_rows rope_split scan_combine gather_rows asm_gemm unroll_gemm"
case "${1:-a}" in
a)
  python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
    | tee -a $OUT/run35a.log
  for k in $NEW; do
    PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $G/$k --out $OUT/gpu35a-$k.json 2>&1 | tail -8 \
      | tee -a $OUT/run35a.log
  done
  ;;
b)
  PYTHONPATH=. timeout 500 python -m pytest -q tests/gpu/test_gpu_gluon.py \
    -k "$(echo $NEW | sed 's/ / or /g')" 2>&1 | tail -6 | tee -a $OUT/run35b.log
  ;;
esac
# c: after a (asm_gemm 4-10 % wrong): a dot reading a register operand is retired in its own body where the next body
#    writes the operand's next value before the wait that would retire it (codegen/gluon/partition.py,
#    OperandHazard); asm_gemm regenerated (no other committed kernel changes); checked and timed again, then b.
case "${1:-a}" in
c)
  PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $G/asm_gemm --out $OUT/gpu35c-asm_gemm.json 2>&1 | tail -4 \
    | tee -a $OUT/run35c.log
  bash bench/results/gluon/runs/run35.sh b
  ;;
esac
