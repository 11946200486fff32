#!/usr/bin/env bash
# Run 220 (session 88, #14). `run220.sh a`: the kernels session 88 wrote (runs/run220/kernels): fifteen one-partition
# kernels whose loads run a stage ahead, each now beside its loop in one stage, the launch timing the two on a key's
# first launch (`--one-stage auto`, gluon_route._fewer_stages); and three of the sweeps' fixes (segment_carry_gemm and
# scattermoe's scatter2scatter, their K loop no longer written twice; trident's non-causal attention backward, which
# did not compile). `run220.sh b`: the fifteen committed pipelined kernels (bench/results/gluon/<stem>), the A of the A/B.
set -u
OUT=${OUT:-/tmp/run220}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > "$OUT/gpu.txt"
export TRITON_CACHE_DIR=$(mktemp -d)
K=bench/results/gluon/runs/run220/kernels
TIMED="accelerated_scan_gated_chunks batched_dot3d deepspeed_layer_norm_residual flashinfer_sampling_from_probs
kmeans_centroid_update liger_sparsemax_bwd reverse_recurrent scan_combine sglang_double_sparsity_decode
sglang_fp8_group_quant_moe_mn_major vllm_decode_stage1 vllm_mla_decode vllm_paged_attention_2d
xformers_bias_dropout_residual xformers_splitk_decode"
if [ "${1:-a}" = c ]; then        # the least device time: four kernels, DeepSpeed's pair and three fixes
  DIRS="$(for s in deepspeed_layer_norm_residual segment_carry_gemm group_absmax_then_scale liger_mm_int8int2; do
    echo $K/$s; done)"
  TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 130 python bench/gluon_gpu.py $DIRS --sizes 4096 --timeout 60 \
    --out $OUT/gpu220c.json > $OUT/run220c.log 2>&1
  grep -vi warning $OUT/run220c.log | tail -12
elif [ "${1:-a}" = b ]; then
  DIRS=$(for s in $TIMED; do echo bench/results/gluon/$s; done)
  TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 560 python bench/gluon_gpu.py $DIRS --sizes 4096 --timeout 100 \
    --out $OUT/gpu220b.json > $OUT/run220b.log 2>&1
  grep -vi warning $OUT/run220b.log | tail -25
else
  FIRST="deepspeed_layer_norm_residual liger_sparsemax_bwd segment_carry_gemm scattermoe_scatter2scatter
trident_attention_bwd_noncausal group_absmax_then_scale liger_mm_int8int2"   # the most telling first (the call may end)
  DIRS="$(for s in $FIRST $TIMED; do echo $K/$s; done | awk '!seen[$0]++')"
  TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 480 python bench/gluon_gpu.py $DIRS --sizes 4096 --timeout 100 \
    --out $OUT/gpu220.json > $OUT/run220.log 2>&1
  grep -vi warning $OUT/run220.log | tail -25
fi
bash bench/results/gluon/runs/device_tree.sh pack "$OUT"
