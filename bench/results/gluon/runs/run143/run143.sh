#!/usr/bin/env bash
# Run 143 (session 58). mx: the MXFP4 upcast GEMM (run 142: `u8 & -128` refused by Gluon on the GPU; fixed since, not
# yet run there) against Triton's default. bwd: the FA backward's loop run again and a PC-sampling stall capture
# (`--loops-only --stalls`): the period the replay's new shared-memory port predicts, and what the consumers stall on.
# fwd: the FA forward's loop run, the same way, for its second loop-period sample.
set -u
G=bench/results/gluon
val() {  # kernel file, variant, extra flags
  PYTHONPATH=. timeout $2 python -m twill validate $1 --arch h200 --schedule $G/$3 -o $OUT/validate-$3 ${@:4} 2>&1 \
    | tee -a $OUT/run143.log | grep -v "^\s*$"
}
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $G/triton_kernels_mxfp4_upcast_gemm \
  --sizes 4096 --timeout 40 --out $OUT/gpu143mx.json 2>&1 | tee -a $OUT/run143.log | grep -v "^\s*$"
val kernels/fa_bwd.py 240 fa_bwd --loops-only --stalls
val kernels/fa3.py 150 fa3 --loops-only
