#!/usr/bin/env bash
# Run 96 on the GPU machine (session 47): short loops, second pass. Run 95 measured the blocksparse sdd matmul as one
# partition ahead of the producer at 4-32 iterations a block (5 CTAs an SM against 2); the route now runs the one
# partition up to 32 iterations where it holds more CTAs an SM than the producer (else up to 8), and reads a loop
# bound's `min` with a CTA's own value as an upper bound (Mamba's chunk state). Kernels in kernels/:
#   bs_auto     the blocksparse matmul's default route (limit 32), K = 512, 1024 (one partition) and 2048 (producer)
#   bs_own*     one partition, its tiles copied 3 (bs_own), 1 (pf1) iterations ahead, or stored through registers (pf0)
#   cs_auto     Mamba's chunk state, default route (one partition where chunk_size / 32 <= 32), against the committed
#   bmm_auto    Mamba's bmm, default route (one partition, copied 3 ahead, at K / 32 <= 8), against the committed
# K = 2048 runs at --sizes 4096: at N = 16384 the file's B (8 x 16 x 16384 x 2048) passes 2^31 elements and Triton's
# own kernel faults too (run 95).
set -u
R=bench/results/gluon/runs/run96
T=$(mktemp -d -p .)
one() {  # one(label, kernel dir, kernel file, jit)
  mkdir -p $T/$1 && cp $2/kernel_gluon.py $T/$1/
  printf '{"label": "%s", "kernel_file": "%s", "jit": "%s"}\n' $1 $3 $4 > $T/$1/variant.json
}
bs() {  # bs(K, size, variants...)
  K=$1; S=$2; shift 2
  sed "s/\"M\": 4096, \"N\": 4096, \"K\": 128,/\"M\": 4096, \"N\": 4096, \"K\": $K,/" tests/corpus/blocksparse_sdd.py \
    > $T/blocksparse_k$K.py
  grep -q "\"K\": $K," $T/blocksparse_k$K.py || { echo "run96: PROBLEM not rewritten for K=$K"; exit 1; }
  dirs=""
  for v in "$@"; do one ${v}_k$K $R/kernels/$v $T/blocksparse_k$K.py _sdd_kernel; dirs="$dirs $T/${v}_k$K"; done
  PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $dirs --sizes $S --out $OUT/gpu96-k$K.json 2>&1 | tee -a $OUT/run96.log
}
bs 128 16384 bs_own_pf0 bs_own_pf1 bs_own
bs 1024 16384 bs_auto bs_own_pf1 bs_own
bs 512 16384 bs_auto
bs 2048 4096 bs_auto bs_own
one cs_auto $R/kernels/cs_auto tests/corpus/mamba_chunk_state.py _chunk_state_fwd_kernel
one bmm_auto $R/kernels/bmm_auto tests/corpus/mamba_bmm_chunk.py _bmm_chunk_fwd_kernel
PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $T/cs_auto bench/results/gluon/mamba_chunk_state --sizes 16384 \
  --out $OUT/gpu96-cs.json 2>&1 | tee -a $OUT/run96.log
PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $T/bmm_auto bench/results/gluon/mamba_bmm_chunk --sizes 16384 \
  --out $OUT/gpu96-bmm.json 2>&1 | tee -a $OUT/run96.log
rm -rf $T
