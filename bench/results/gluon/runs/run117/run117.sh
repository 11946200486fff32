#!/usr/bin/env bash
# Run 117 on the GPU machine (session 51): each CTA's life in %clock64 cycles and %globaltimer nanoseconds, read in
# the generated persistent FA forward and GEMM around gl.warp_specialize (bench/clock_probe.py): the SM clock under
# the power cap as the kernel sees it, and the cycles an iteration over the whole kernel.
set -u
G=bench/results/gluon
PYTHONPATH=. timeout 150 python bench/clock_probe.py $G/fa3 --iterations-per-tile 128 --sizes 16384 --calls 40 \
  --out $OUT/probe-fa3-16k.json 2>&1 | tee -a $OUT/run117.log
PYTHONPATH=. timeout 100 python bench/clock_probe.py $G/fa3 --iterations-per-tile 32 --sizes 4096 --calls 100 \
  --out $OUT/probe-fa3-4k.json 2>&1 | tee -a $OUT/run117.log
PYTHONPATH=. timeout 100 python bench/clock_probe.py $G/gemm --iterations-per-tile 64 --calls 400 \
  --out $OUT/probe-gemm.json 2>&1 | tee -a $OUT/run117.log
