#!/usr/bin/env bash
# Run 162 (session 62): run 161 again, and shuffles against the rows a thread holds (bench/reduce_exchange.py: a loop-carried chain
# x = x * 0.5 + sum(x, AXIS) * s, %clock64 around the loop, one CTA an SM).
set -u
PYTHONPATH=. timeout 300 python bench/reduce_exchange.py --gpu --out $OUT/reduce162.json 2>&1 | tee $OUT/run162.log
