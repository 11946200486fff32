#!/usr/bin/env bash
# Run 169 (session 63): loop runs (`twill validate --loops-only`) of the two kernels this session added or changed:
# AMD's dropout attention (one 8-warp consumer now) and the k-means assignment.
set -u
G=bench/results/gluon
v() {   # label kernel-file
  PYTHONPATH=. timeout 140 python -m twill validate "$2" --arch h200 --schedule $G/$1 -o $OUT/validate-$1 --loops-only \
    2>&1 | tee -a $OUT/run169.log | grep -E "per iteration|loop run|PASS|FAIL|error" | head -6
}
v amd_fa_dropout_alibi tests/corpus/amd_fa_dropout_alibi.py
v kmeans_assign tests/corpus/kmeans_assign.py
