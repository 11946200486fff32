#!/usr/bin/env bash
# Run 182 (session 68): loop runs (`twill validate --loops-only`) of five row kernels of many CTAs an SM, where the
# global-memory bound (`twill.validate_gluon.global_traffic`: the SM's CTAs sharing its load path) is 3-18x the
# schedule's prediction. Only the log and each validation.json come back (the device tool's file count).
set -u
G=bench/results/gluon
v() {   # label kernel-file
  PYTHONPATH=. timeout 150 python -m twill validate "$2" --arch h200 --schedule $G/$1 -o /tmp/validate-$1 --loops-only \
    2>&1 | tee -a $OUT/run182-loops.log | grep -E "per iteration|loop run|PASS|FAIL|error|global" | head -8
  cp /tmp/validate-$1/validation.json $OUT/validation-$1.json 2>/dev/null
}
v token_quant_fp8 tests/corpus/token_quant_fp8.py
v cumsum_rows tests/corpus/cumsum_rows.py
v layer_norm tests/corpus/layer_norm.py
v online_softmax tests/corpus/online_softmax.py
v cross_entropy tests/corpus/cross_entropy.py
