#!/usr/bin/env bash
# Run 94 on the GPU machine (session 45): the blocksparse sdd matmul (x0.44 of Triton's best in run 93; four K
# iterations a block, K = 128) as committed by the default route (a producer) and as one partition copying its own
# tiles 3 and 1 iterations ahead (`--own-tiles on`, `--prefetch 1`); the BitNet GEMM again with its reference fixed
# (float64 in place of an int64 matmul, which CUDA lacks).
set -u
run() { PYTHONPATH=. timeout 120 python bench/gluon_gpu.py "$@" 2>&1 | grep -v "^baseline" | tail -2 | tee -a $OUT/run94.log; }
R=bench/results/gluon/runs/run94
for v in blocksparse_sdd blocksparse_sdd_own blocksparse_sdd_own_pf1 bitnet_ternary_gemm; do
  run $R/$v --sizes 16384 --out $OUT/gpu94-$v.json
done
