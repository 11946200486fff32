#!/usr/bin/env bash
# Run 106 on the GPU machine (session 49): three kernels of this session's sweep, first on a GPU, each against
# Triton's own compile of its file: Unsloth's MoE grouped GEMM forward (an `if m_size > 0` between the loop over
# experts and the while over an expert's tiles, now a level of the nest every partition writes), a privatised histc
# (tl.histogram, now gl.histogram), FLA's solve_tril_16x16 (one partition, a row loop with a runtime bound).
set -u
R=bench/results/gluon/runs/run106
[ "${1:-a}" = a ] && PYTHONPATH=. timeout 330 python bench/gluon_gpu.py $R/kernels/unsloth_moe_grouped_gemm $R/kernels/histc_privatized \
  $R/kernels/fla_solve_tril --sizes 16384 --timeout 150 --out $OUT/gpu106.json 2>&1 | tee -a $OUT/run106.log
# b: the two kernels run 106 could not check, their files fixed (SMALL with PROBLEM's constexprs, which the generated
# kernel is specialised on; histc's load without `.cg`, which ptxas refuses beside `evict_first`) and regenerated.
if [ "${1:-}" = b ]; then
  PYTHONPATH=. timeout 250 python bench/gluon_gpu.py $R/kernels-b/unsloth_moe_grouped_gemm $R/kernels-b/histc_privatized \
    --sizes 16384 --timeout 120 --out $OUT/gpu106b.json 2>&1 | tee -a $OUT/run106b.log
fi
