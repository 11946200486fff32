#!/usr/bin/env bash
# Run 146 (session 58): run 145's finding fixed offline (a reduction whose combiner is arith.maxui / minui was written
# as a signed gl.max / gl.min; an arith.select's result was typed as its condition's i1): the top-k probes p1 and p2
# and tk_topk_forward again, tk with Triton's default beside it.
set -u
G=bench/results/gluon
P=$G/runs/run145/probes
gpu() { TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 280 python bench/gluon_gpu.py "$@" --timeout 40 2>&1 \
          | tee -a $OUT/run146.log | grep -v "^\s*$"; }
gpu $P/p1 $P/p2 --no-baselines --sizes 0 --out $OUT/gpu146p.json
gpu $G/tk_topk_forward --sizes 4096 --out $OUT/gpu146tk.json
