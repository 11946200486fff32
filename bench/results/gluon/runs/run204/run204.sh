#!/usr/bin/env bash
# Run 204 (session 78). a: the two kernels the Gluon back end writes since session 78 with an accumulator carried
# through the kernel's own loop and an `if` around the scheduled loop (torchtitan's MoE weight gradient, refused
# before; block_skip_gemm, written for it), checked against their references (two seeds, NaN-poisoned outputs) and
# timed against Triton's default at their PROBLEMs; torchtitan's also as one partition loading its own tiles
# (`--own-tiles on`, `-own`; offline the route's one-partition kernel held 5 CTAs an SM, the producer's kernel 2).
# b: run 203's a4, the eight committed kernels no run has timed at their current hash.
set -u
G=bench/results/gluon
export TRITON_CACHE_DIR=$(mktemp -d)
A="torchtitan_cg_backward_dw block_skip_gemm"
B="torchao_fp8_blockwise_act_quant triton_kernels_mxfp4_matmul tritonbench_jagged_softmax tut03_autotune_matmul
 tut09_desc_persistent_ws unroll_gemm vllm_fused_add_rms_norm vllm_ssd_chunk_scan"
case "${1:-}" in
  a) L="$A" ;;
  b) L=$B ;;
  *) echo "usage: $0 a|b" >&2; exit 2 ;;
esac
DIRS=$(for k in $L; do echo $G/$k; done)
[ "$1" = a ] && DIRS="$DIRS $G/runs/run204/torchtitan_cg_backward_dw-own"
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 580 python bench/gluon_gpu.py $DIRS --sizes 4096 \
  --timeout 150 --out $OUT/gpu204$1.json 2>&1 | tee $OUT/run204$1.log | grep -vi warning
