#!/usr/bin/env bash
# Run 95 on the GPU machine (session 46): short loops at launch time. The blocksparse sdd matmul (run 94: x0.44 of
# Triton's best with the route's producer, x1.04-1.06 as one partition; four K iterations a block) generated three
# ways from the same schedule (kernels/): the default route (`auto`: both kernels in one module, the launch running
# the one partition where (K + 32 - 1) // 32 <= 8), the producer alone (`long`: --short-loops off), one partition alone
# (`own`: --own-tiles on); each at K = 128, 256, 512, 1024, 2048 (4 to 64 iterations a block; the kernel file's
# PROBLEM with that K, written to a scratch folder), against Triton's best at each K.
set -u
R=bench/results/gluon/runs/run95
T=$(mktemp -d -p .)
for K in ${@:-128 256 512 1024 2048}; do
  sed "s/\"M\": 4096, \"N\": 4096, \"K\": 128,/\"M\": 4096, \"N\": 4096, \"K\": $K,/" tests/corpus/blocksparse_sdd.py \
    > $T/blocksparse_k$K.py
  grep -q "\"K\": $K," $T/blocksparse_k$K.py || { echo "run95: PROBLEM not rewritten for K=$K"; exit 1; }
  for v in auto long own; do
    mkdir -p $T/${v}_k$K && cp $R/kernels/$v/kernel_gluon.py $T/${v}_k$K/
    printf '{"label": "%s_k%s", "kernel_file": "%s/blocksparse_k%s.py", "jit": "_sdd_kernel"}\n' $v $K $T $K \
      > $T/${v}_k$K/variant.json
  done
  PYTHONPATH=. timeout 280 python bench/gluon_gpu.py $T/auto_k$K $T/long_k$K $T/own_k$K --sizes 16384 \
    --out $OUT/gpu95-k$K.json 2>&1 | tee -a $OUT/run95.log
done
rm -rf $T
