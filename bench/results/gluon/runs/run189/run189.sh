#!/usr/bin/env bash
# Run 189 (session 71), three device calls. `a`: run 188's remainder (its six new kernels against Triton's default, which
# its first call did not reach; nan_max_rows made well defined; the inductor layer norm and vLLM's paged attention beside
# run 187's --issued-loads kernels) and the headline kernels' checks. `b`: the FA forward and the GEMM head to head with
# cuDNN / cuBLAS and Triton's default, round by round (bench/gluon_vs.py). `c`: the FA backward against Triton's
# configurations at 1k / 4k / 16k.
set -u
G=bench/results/gluon
export TRITON_CACHE_DIR=$(mktemp -d)
case "${1:-}" in
  a) TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 300 python bench/gluon_gpu.py $G/noisy_topk_gating $G/erf_gelu_bitcast_rows \
       $G/hqq_bits_dequant_gemm $G/fp64_rownorm_bf16_atomic $G/lp_pool_argmax_int16 $G/nan_max_rows $G/inductor_layer_norm \
       $G/runs/run187/inductor_layer_norm-il $G/vllm_paged_attention_2d $G/runs/run187/vllm_paged_attention_2d-il \
       --sizes 4096 --timeout 60 --out $OUT/gpu189a.json 2>&1 | tee $OUT/run189a.log | grep -vi warning
     PYTHONPATH=. timeout 90 python bench/gluon_gpu.py $G/fa3 $G/gemm --sizes 0 --no-baselines --timeout 60 \
       --out $OUT/gpu189-checks.json 2>&1 | tee -a $OUT/run189a.log | grep -vi warning
     ;;
  c) PYTHONPATH=. timeout 400 python bench/gluon_gpu.py $G/fa_bwd --sizes 1024,4096,16384 --timeout 200 \
       --out $OUT/gpu189-fa_bwd.json 2>&1 | tee $OUT/run189c.log | grep -vi warning ;;
  b) PYTHONPATH=. timeout 300 python bench/gluon_vs.py $G/fa3 --rounds 5 --sizes 1024,4096,16384 \
       --out $OUT/vs189-fa3.json 2>&1 | tee $OUT/run189b.log | grep -vi warning
     PYTHONPATH=. timeout 150 python bench/gluon_vs.py $G/gemm --rounds 7 \
       --out $OUT/vs189-gemm.json 2>&1 | tee -a $OUT/run189b.log | grep -vi warning ;;
  *) echo "usage: $0 a|b|c" >&2; exit 2 ;;
esac
