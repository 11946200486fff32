#!/usr/bin/env bash
# Run 78 (session 42): Inductor's flat persistent TMA template with the flag and 4-deep rings (probe/r78/ind_flag4)
# against the committed kernel; the two Mamba kernels with short loops (chunk_state: 8 iterations of 64x64x32,
# bmm: 4 of 128x128x32) with one partition loading its own tiles (own_tiles, several CTAs per SM as Triton's) against
# the committed ones (producer + consumer, two CTAs per SM), each pair in one process against one Triton baseline.
set -u
G=bench/results/gluon
run() { PYTHONPATH=. timeout 150 python bench/gluon_gpu.py "$@" 2>&1 | tail -6 | tee -a $OUT/run78.log; }
run $G/inductor_persistent_tma_mm probe/r78/ind_flag4 --sizes 16384 --out $OUT/gpu78-ind.json
run $G/mamba_chunk_state probe/r78/mamba_chunk_state_own --sizes 16384 --out $OUT/gpu78-cs.json
run $G/mamba_bmm_chunk probe/r78/mamba_bmm_chunk_own --sizes 16384 --out $OUT/gpu78-bmm.json
