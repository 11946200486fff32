#!/usr/bin/env bash
# Run 98 on the GPU machine (session 47): the autotuner's config (run 97). bitsandbytes' int8 GEMM generated at the
# config its autotuner chose (BLOCK_K = 128, `--const BLOCK_K=128`; TWILL_SPEC's first config has 32): the default
# route (an 8-warp producer, persistent) and one partition (`--own-tiles on`), against the committed kernel (BLOCK_K
# = 32) and the file's autotuned launch. Tri Dao's layer-norm backward at its autotuner's 32 warps (`--num-warps 32`)
# against the committed 8.
set -u
R=bench/results/gluon/runs/run98
T=$(mktemp -d -p .)
one() {  # one(label, kernel file, jit)
  mkdir -p $T/$1 && cp $R/kernels/$1/kernel_gluon.py $T/$1/
  printf '{"label": "%s", "kernel_file": "%s", "jit": "%s"}\n' $1 $2 $3 > $T/$1/variant.json
}
one int8_k128 tests/corpus/bnb_int8_matmul_rowwise.py _int8_matmul_rowwise_dequantize
one int8_k128_own tests/corpus/bnb_int8_matmul_rowwise.py _int8_matmul_rowwise_dequantize
one tridao_w32 tests/corpus/tridao_ln_bwd.py _layer_norm_bwd_kernel
PYTHONPATH=. timeout 280 python bench/gluon_gpu.py $T/int8_k128 $T/int8_k128_own bench/results/gluon/bnb_int8_matmul_rowwise \
  --sizes 16384 --out $OUT/gpu98-int8.json 2>&1 | tee -a $OUT/run98.log
PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $T/tridao_w32 bench/results/gluon/tridao_ln_bwd \
  --sizes 16384 --out $OUT/gpu98-tridao.json 2>&1 | tee -a $OUT/run98.log
rm -rf $T
