#!/usr/bin/env bash
# Run 140 (session 57). a: the loop run (#17: each partition's main loop timed whole, no record inside a loop) on the
# GEMM, the FA forward and the FA backward, with the run of one anchor region a partition that counts its trips
# (`--loops-only`). b: the kernels the h200 route now writes differently (runs/run140/kernels/<label>, "_after")
# beside the committed ones, back to back; then the seven run-139 kernels kept as committed, timed again so that
# their latest record is theirs (kernel_sha256 recorded from this run on).
set -u
G=bench/results/gluon
K=$G/runs/run140/kernels
case "${1:-a}" in
  a) PYTHONPATH=. timeout 560 python bench/gluon_profile.py $G/gemm $G/fa3 $G/fa_bwd --loops-only --max-overhead 10 \
       --timeout 180 --out $OUT/prof140 2>&1 | tee $OUT/run140a.log | grep -v "^\s*$" ;;
  b) DIRS=""
     for k in mamba_bmm_chunk_bwd triton_kernels_mxfp4_matmul vllm_mla_decode batched_dot3d; do DIRS="$DIRS $G/$k $K/$k"; done
     for k in flaggems_argmax_dim softmax_rows awq_gemm welford_rows anemoi_graph_transformer fla_fused_recurrent_dplr \
              vllm_causal_conv1d_fwd; do DIRS="$DIRS $G/$k"; done
     TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 560 python bench/gluon_gpu.py $DIRS --sizes 4096 --timeout 40 --no-baselines \
       --out $OUT/gpu140.json 2>&1 | tee $OUT/run140b.log | grep -v "^\s*$" ;;
esac
