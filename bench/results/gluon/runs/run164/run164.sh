#!/usr/bin/env bash
# Run 164 (session 62): how far other CTAs on an SM hide a reduction chain's latency (bench/reduce_exchange.py
# --ctas-per-sm: 1-16 CTAs an SM of five probe loops, each CTA's %clock64 cycles an iteration).
set -u
PYTHONPATH=. timeout 300 python bench/reduce_exchange.py --gpu --ctas-per-sm 1,2,4,8,16 --out $OUT/reduce164.json \
  2>&1 | tee $OUT/run164.log
