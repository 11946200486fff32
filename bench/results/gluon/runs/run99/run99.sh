#!/usr/bin/env bash
# Run 99 on the GPU machine (session 47): (1) `twill capture` of Mamba bmm's autotuned launch again, with the fix
# (the autotuner found through the kernel function's globals): the spec should mark its choice. (2) Mamba's bmm
# generated at the config its autotuner chose in run 97 (BLOCK_SIZE_M = 64: `--const BLOCK_SIZE_M=64`, the default
# route: a producer, and the one partition for K / 32 <= 32, 3 CTAs an SM against 2) against the committed kernel
# (128 x 128) and the autotuned launch.
set -u
R=bench/results/gluon/runs/run99
PYTHONPATH=. timeout 120 python -m twill capture -o $OUT/capture99-mamba_bmm_chunk.json -- \
  python bench/results/gluon/runs/run97/launch_once.py tests/corpus/mamba_bmm_chunk.py 2>&1 | tail -3 | tee -a $OUT/run99.log
T=$(mktemp -d -p .)
mkdir -p $T/bmm_m64 && cp $R/kernels/bmm_m64/kernel_gluon.py $T/bmm_m64/
printf '{"label": "bmm_m64", "kernel_file": "tests/corpus/mamba_bmm_chunk.py", "jit": "_bmm_chunk_fwd_kernel"}\n' \
  > $T/bmm_m64/variant.json
PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $T/bmm_m64 bench/results/gluon/mamba_bmm_chunk --sizes 16384 \
  --out $OUT/gpu99-bmm.json 2>&1 | tee -a $OUT/run99.log
rm -rf $T
