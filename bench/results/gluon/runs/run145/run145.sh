#!/usr/bin/env bash
# Run 145 (session 58): where tk_topk_forward's top-k goes wrong (run 144). Three probes, each a piece of its streaming
# top-k alone in a loop, checked against the Triton kernel itself: p0 the order-preserving unsigned keys of every
# block stored; p1 tl.topk, tl.bitonic_merge and tl.maximum carried over the blocks; p2 p1 and tl.sort after the loop.
set -u
P=bench/results/gluon/runs/run145/probes
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 300 python bench/gluon_gpu.py $P/p0 $P/p1 $P/p2 --no-baselines --sizes 0 \
  --timeout 40 --out $OUT/gpu145.json 2>&1 | tee -a $OUT/run145.log | grep -v "^\s*$"
