#!/usr/bin/env bash
# Run 104 on the GPU machine (session 49): the FA backward's m and Delta row vectors. The committed kernel loads them a
# stage ahead in a compact layout (1 register a thread) and converts them to the wgmma slice layout every iteration
# through shared memory (partition barriers). Variants generated from the committed schedule (`probe_bwd.py`, offline
# SASS census per consumer loop: partition barriers / spill instructions): committed 11/11 and 10/22; ahead0 (loads in
# their readers' stage, still compact) 11/5, 10/17; ahead0_nocompact (in their readers' stage, loaded in the slice
# layout: no conversion) 8/3, 7/23; nocompact (a stage ahead in the slice layout) 8/76, 7/121.
set -u
R=bench/results/gluon/runs/run104
PYTHONPATH=. timeout 400 python bench/gluon_gpu.py bench/results/gluon/fa_bwd $R/kernels/bwd_ahead0 \
  $R/kernels/bwd_ahead0_nocompact $R/kernels/bwd_nocompact --sizes 16384 --out $OUT/gpu104.json 2>&1 | tee -a $OUT/run104.log
