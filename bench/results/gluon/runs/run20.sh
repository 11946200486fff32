#!/usr/bin/env bash
# Run 20 on the GPU machine (session 19).
#   a: kernels with two loops in sequence, written by the same partitions through the same rings: causal attention
#      in Triton's tutorial 06 style (tests/corpus/causal_attention.py: the blocks before the diagonal, then the
#      masked diagonal block; the first query block's first loop runs no iteration) and a GEMM whose K loop is
#      peeled into whole blocks and a masked tail (tests/corpus/tail_loop_gemm.py); checked and timed against
#      Triton's own compile, SDPA (cuDNN, flash; causal) and cuBLAS.
#   b: the FA forward and the GEMM regenerated with the guards for loops that run no iteration (the two-stage
#      FA loop inside `if twill_n >= 1`, the one-stage GEMM's last releases predicated), against the kernel
#      committed before, in the same rounds. As run: $G/fa3 held the guarded kernel (now runs/run20/fa3-guarded,
#      labelled fa3) and runs/run20/fa3-before the kernel committed before (now $G/fa3 again: the guard is
#      written only where a loop's trip count varies). To repeat: the two directories below.
set -u
G=bench/results/gluon
R=$G/runs/run20
case "${1:-a}" in
a)
  PYTHONPATH=. timeout 560 python bench/gluon_gpu.py $G/fa_causal $G/tail_gemm --sizes 1024,4096,16384 \
    --out $OUT/gpu20a.json 2>&1 | tee $OUT/run20a.log
  ;;
b)
  PYTHONPATH=. timeout 330 python bench/gluon_gpu.py $R/fa3-guarded $G/gemm --sizes 16384 --out $OUT/gpu20b.json 2>&1 \
    | tee $OUT/run20b.log
  PYTHONPATH=. timeout 220 python bench/gluon_vs.py $R/fa3-guarded $G/fa3 --rounds 7 --sizes 4096,16384 \
    --out $OUT/vs20b.json 2>&1 | tee -a $OUT/run20b.log
  ;;
esac
