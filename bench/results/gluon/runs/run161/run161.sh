#!/usr/bin/env bash
# Run 161 (session 62): what a reduction across warps costs (bench/reduce_exchange.py: a loop-carried chain
# x = x * 0.5 + sum(x, AXIS) * s, %clock64 around the loop, one CTA an SM).
set -u
PYTHONPATH=. timeout 300 python bench/reduce_exchange.py --gpu --out $OUT/reduce161.json 2>&1 | tee $OUT/run161.log
