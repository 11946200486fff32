#!/usr/bin/env bash
# Run 101 on the GPU machine (session 48): FlexAttention as torch.compile renders it. (1) The forward
# (`tests/corpus/inductor_flex_attention.py`: causal block mask, the helper's loop over the full blocks scheduled,
# the partial blocks' loop before it in the same partitions) and (2) the decoding kernel
# (`tests/corpus/inductor_flex_decoding.py`: GQA rows, 16 key splits), each the committed default-route kernel
# against Triton's own compile of the file and torch; (3) the decoding kernel as one partition (`--own-tiles on`).
# The committed default-route kernels it ran were taken out after it (both fault; see NOTES.md): they are kept as
# runs/run101/kernels/flex_auto and dec_auto, and bench/results/gluon/inductor_flex_* no longer exist.
set -u
R=bench/results/gluon/runs/run101
T=$(mktemp -d -p .)
mkdir -p $T/dec_own && cp $R/kernels/dec_own/kernel_gluon.py $T/dec_own/
printf '{"label": "dec_own", "kernel_file": "tests/corpus/inductor_flex_decoding.py", "jit": "triton_tem_fused_1"}\n' \
  > $T/dec_own/variant.json
PYTHONPATH=. timeout 200 python bench/gluon_gpu.py bench/results/gluon/inductor_flex_attention --sizes 16384 \
  --out $OUT/gpu101-flex.json 2>&1 | tee -a $OUT/run101.log
PYTHONPATH=. timeout 200 python bench/gluon_gpu.py bench/results/gluon/inductor_flex_decoding $T/dec_own --sizes 16384 \
  --out $OUT/gpu101-dec.json 2>&1 | tee -a $OUT/run101.log
rm -rf $T
