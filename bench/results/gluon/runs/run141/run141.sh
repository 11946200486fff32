#!/usr/bin/env bash
# Run 141 (session 57, #17): a: `twill validate` of the GEMM and the FA forward with the whole profile, the loop runs
# first (partition 0's loop alone, then every partition's); b: the FA backward's validation with the loop runs only
# (`--loops-only`: its region profile needs two 600 s commands, run 103).
set -u
G=bench/results/gluon
val() {  # kernel file, variant, extra flags
  PYTHONPATH=. timeout 290 python -m twill validate $1 --arch h200 --schedule $G/$2 -o $OUT/validate-$2 ${@:3} 2>&1 \
    | tee -a $OUT/run141.log | grep -v "^\s*$"
}
case "${1:-a}" in
  a) val kernels/gemm.py gemm; val kernels/fa3.py fa3 ;;
  b) val kernels/fa_bwd.py fa_bwd --loops-only ;;
esac
