#!/usr/bin/env bash
# Run 177 (session 65): kernels the current code writes differently from their committed ones (the producer's ring
# copies held for their issue, twill.solve.joint_problem.copied_async; the rings sized for the busiest unit's iteration
# where under the II; and what else moved since each was committed), each new kernel against its committed one, no
# baselines (the pairs run side by side).
set -u
G=bench/results/gluon; R=$G/runs/run177
DIRS=""
for v in fp8_gemm inductor_mm persistent_gemm guarded_gemm tf32_gemm splitk_gemm tail_gemm streamk_gemm block_ptr_gemm chunk_kkt chunk_state conv_implicit_gemm fbgemm_grouped_gemm_scatter_add fla_chunk_bwd_dqkwg fla_chunk_h fla_fused_chunk_retention fla_gated_delta_h flash_attn_triton; do
  DIRS="$DIRS $G/$v $R/$v-new"
done
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 570 python bench/gluon_gpu.py $DIRS --sizes 4096 --timeout 45 --no-baselines \
  --out $OUT/gpu177.json 2>&1 | tee $OUT/run177.log | grep -vi "warning"
