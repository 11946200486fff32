#!/usr/bin/env bash
# Run 93 on the GPU machine (session 45): the four kernels of this session's sweep of public styles that twill
# generates, first run on the GPU, each against Triton's best config of its file: FBGEMM's jagged x dense bmm (offsets
# loaded for each batch), the old blocksparse "sdd" matmul (a LUT of blocks, a K loop counting down), a BitNet ternary
# GEMM (2-bit weights unpacked from repeated addresses) and an int4 weight-only GEMM unpacking its nibbles with inline
# PTX (`tl.inline_asm_elementwise`, pack=4: the interpreter cannot run it, so its element order is first checked here).
set -u
run() { PYTHONPATH=. timeout 150 python bench/gluon_gpu.py "$@" 2>&1 | tail -2 | tee -a $OUT/run93.log; }
python -c "import torch, triton; print('env', torch.__version__, triton.__version__, torch.cuda.get_device_name())" \
  | tee -a $OUT/run93.log
R=bench/results/gluon/runs/run93
for v in fbgemm_jagged_dense_bmm blocksparse_sdd bitnet_ternary_gemm w4a16_lop3_gemm; do
  run $R/$v --sizes 16384 --out $OUT/gpu93-$v.json
done
