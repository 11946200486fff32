#!/usr/bin/env bash
# Run 199 (session 73), two calls. a: session 73's sweep, first on the GPU (nine kernels, each agreeing with its
# reference in Triton's interpreter; bitsandbytes' blockwise quantization with its search's gather kept in its
# readers' stage). b: the dequantising GEMMs and the RMSNorm GEMM at 4 warps beside their committed 8-warp kernels,
# and where the committed kernels' partitions spend their time (PC sampling).
set -u
G=bench/results/gluon
R=$G/runs/run199
export TRITON_CACHE_DIR=$(mktemp -d)
case "${1:-a}" in
a) TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 570 python bench/gluon_gpu.py $G/bnb_blockwise_dynamic_quant \
     $G/apex_multi_tensor_adam $G/gguf_q4k_gemm $G/sparse24_meta_gemm $G/ring_attn_step_merge \
     $G/vllm_fp8_kv_paged_decode $G/mamba1_selective_scan_fwd $G/t5_relpos_bucket_attention \
     $G/vllm_alibi_prefill_causal --sizes 4096 --timeout 150 --out $OUT/gpu199a.json 2>&1 | tee $OUT/run199a.log \
     | grep -vi warning ;;
b) TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 400 python bench/gluon_gpu.py $G/w4a16_gemm $R/w4a16_gemm-w4 \
     $G/w8a16_gemm $R/w8a16_gemm-w4 $G/rmsnorm_prologue_gemm $R/rmsnorm_prologue_gemm-w4 --sizes 4096 --timeout 120 \
     --out $OUT/gpu199b.json 2>&1 | tee $OUT/run199b.log | grep -vi warning
   PYTHONPATH=. timeout 170 python bench/gluon_stalls.py $G/rmsnorm_prologue_gemm $G/w4a16_gemm --out $OUT/stalls \
     2>&1 | tee -a $OUT/run199b.log ;;
esac
