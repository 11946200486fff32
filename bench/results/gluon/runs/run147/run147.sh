#!/usr/bin/env bash
# Run 147 (session 58): unsigned keys through a scan (tt.scan of arith.maxui, written through its region with the
# operands read as unsigned) and a reduction (tl.max of uint32, read as unsigned), run 145's fix on a kernel of its
# own, with Triton's default beside it.
set -u
G=bench/results/gluon
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 280 python bench/gluon_gpu.py $G/uint_scan_max --sizes 4096 --timeout 40 \
  --out $OUT/gpu147.json 2>&1 | tee -a $OUT/run147.log | grep -v "^\s*$"
