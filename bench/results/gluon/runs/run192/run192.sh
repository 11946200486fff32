#!/usr/bin/env bash
# Run 192 (session 72): first GPU run of session 72's kernels: a fused RMSNorm's sum-of-squares loop before its GEMM's
# K loop (the producer now counts that loop's trips and copies nothing for it), a key count before attention's loop
# (one partition: a producer would wait for it), the Differential Transformer's attention (one partition: no joint
# schedule fits a warp-specialized consumer's registers), and the sweep's sliding-window attention, CSR SpMM,
# DeepGEMM-style masked fp8 grouped GEMM, vLLM's rejection sampler, KIVI's 2-bit KV decode, Performer's FAVOR+ key state.
# Each checked (NaN-poisoned outputs, two seeds) and timed against Triton's default.
set -u
G=bench/results/gluon
export TRITON_CACHE_DIR=$(mktemp -d)
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 560 python bench/gluon_gpu.py $G/rmsnorm_prologue_gemm \
  $G/padmask_len_attention $G/diff_attention_fwd $G/sliding_window_attention $G/csr_spmm_rows \
  $G/deepgemm_masked_grouped_fp8 $G/vllm_rejection_sample $G/kivi_int2_decode_attention \
  $G/performer_favor_linear_attention --sizes 4096 --timeout 120 --out $OUT/gpu192.json 2>&1 \
  | tee $OUT/run192.log | grep -vi warning
