#!/usr/bin/env bash
# Run 137 (session 56): the fp8 weight GEMM as the route now chooses it (two CTAs an SM, its weight copied by
# cp.async) and mx_gemm's kernel solved again (its record was stale: I 172 -> 160), each checked and timed against
# Triton's default; then the committed kernels whose latest figure is under x0.88 of Triton's default and from a run
# before 130 (`python bench/gluon_latest.py --below 0.88 --older-than 130`), measured again as committed now.
set -u
G=bench/results/gluon
L="fp8_weight_asm_pack4_gemm mx_gemm fla_solve_tril chunk_state chunk_scan decode_attention mamba_bmm_chunk_bwd
mamba_bmm_chunk w8a16_gemm w4a16_gemm flaggems_bmm batched_dot3d sglang_double_sparsity_decode splitk_guarded
block_ptr_gemm xformers_seqpar_matmul minference_vertical_slash"
DIRS=""
for k in $L; do DIRS="$DIRS $G/$k"; done
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 540 python bench/gluon_gpu.py $DIRS --sizes 4096 --timeout 40 \
  --out $OUT/gpu137.json 2>&1 | tee $OUT/run137.log | grep -v "^\s*$"
