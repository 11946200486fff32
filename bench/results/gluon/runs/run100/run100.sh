#!/usr/bin/env bash
# Run 100 on the GPU machine (session 47): the short loops' launch as committed now. Its second limit (32
# iterations) applies where the one partition holds more CTAs an SM than the producer AND the launch's CTAs outnumber
# what the SMs hold of the producer's (the launch counts them with the device's SMs). (1) The blocksparse matmul's
# default route at K = 512 and 1024 (thousands of CTAs: the one partition). (2) prefix_scores at T = 2048 (32
# iterations, 32 CTAs: the producer by the grid rule) against its one partition (`--own-tiles on`). (3) The committed
# int8 GEMM (BLOCK_K = 128, 32 iterations: the producer) and Mamba's chunk state (8: the one partition), rewritten
# with this launch.
set -u
R=bench/results/gluon/runs/run100
T=$(mktemp -d -p .)
one() {  # one(label, kernel dir, kernel file, jit)
  mkdir -p $T/$1 && cp $2/kernel_gluon.py $T/$1/
  printf '{"label": "%s", "kernel_file": "%s", "jit": "%s"}\n' $1 $3 $4 > $T/$1/variant.json
}
for K in 512 1024; do
  sed "s/\"M\": 4096, \"N\": 4096, \"K\": 128,/\"M\": 4096, \"N\": 4096, \"K\": $K,/" tests/corpus/blocksparse_sdd.py \
    > $T/blocksparse_k$K.py
  grep -q "\"K\": $K," $T/blocksparse_k$K.py || { echo "run100: PROBLEM not rewritten for K=$K"; exit 1; }
  one bs_auto_k$K $R/kernels/bs_auto $T/blocksparse_k$K.py _sdd_kernel
  PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $T/bs_auto_k$K --sizes 16384 --out $OUT/gpu100-bs-k$K.json 2>&1 \
    | tee -a $OUT/run100.log
done
sed 's/^PROBLEM: dict\[str, int\] = {"T": 8192}/PROBLEM: dict[str, int] = {"T": 2048}/' tests/corpus/prefix_scores.py \
  > $T/prefix_scores_t2048.py
grep -q '"T": 2048}' $T/prefix_scores_t2048.py || { echo "run100: PROBLEM not rewritten for T=2048"; exit 1; }
one ps_auto $R/kernels/ps_auto $T/prefix_scores_t2048.py prefix_scores
one ps_own $R/kernels/ps_own $T/prefix_scores_t2048.py prefix_scores
PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $T/ps_auto $T/ps_own --sizes 16384 --out $OUT/gpu100-ps.json 2>&1 \
  | tee -a $OUT/run100.log
PYTHONPATH=. timeout 200 python bench/gluon_gpu.py bench/results/gluon/bnb_int8_matmul_rowwise --sizes 16384 \
  --out $OUT/gpu100-int8.json 2>&1 | tee -a $OUT/run100.log
PYTHONPATH=. timeout 150 python bench/gluon_gpu.py bench/results/gluon/mamba_chunk_state --sizes 16384 \
  --out $OUT/gpu100-cs.json 2>&1 | tee -a $OUT/run100.log
rm -rf $T
