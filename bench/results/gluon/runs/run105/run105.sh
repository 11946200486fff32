#!/usr/bin/env bash
# Run 105 on the GPU machine (session 49): wgmma layouts re-derived for a consumer take as many more columns an
# instruction as their columns lost warps (codegen/gluon/layouts.py Mma.rewarp). Two committed kernels change: the FA
# backward (dQ, [4, 2] warps of 64-column wgmmas in Triton's kernel, now one warp group's 128-column instructions:
# its A operand read from shared memory once, not twice; 28 wgmmas a trip, not 32) and the hand-sub-tiled FA forward
# (its P @ V). Each against the kernel before the change (runs/run105/kernels/*_before), same run.
set -u
G=bench/results/gluon
R=$G/runs/run105
PYTHONPATH=. timeout 280 python bench/gluon_gpu.py $G/fa_bwd $R/kernels/fa_bwd_before --sizes 16384 \
  --out $OUT/gpu105-bwd.json 2>&1 | tee -a $OUT/run105.log
PYTHONPATH=. timeout 250 python bench/gluon_gpu.py $G/fa3_subtiled $R/kernels/fa3_subtiled_before --sizes 4096,16384 \
  --out $OUT/gpu105-fwd.json 2>&1 | tee -a $OUT/run105.log
