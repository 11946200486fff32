#!/usr/bin/env bash
# Run 142 (session 57). c: sweep M's four Gluon kernels (first on a GPU) and three kernels whose latest figure predates
# their regeneration (FLA's WY backward run 129, FlagGems' peeled mm run 130, FlagAttention's dK/dV run 133), each with
# Triton's default beside it. a / b: the committed variants the route now writes differently (solved again this
# session, runs/run142/kernels/<label>, "_after"): a, where the long-loop kernel itself changed, committed and after
# back to back; b, where only a one-partition kernel for short loops was added beside the same long kernel, the after
# kernel's checks alone (they run the short path at SMALL where the loop is short; PROBLEM runs the long kernel, the
# committed one's); mx: the MXFP4 upcast GEMM's compile failure of c with its traceback (after a).
set -u
G=bench/results/gluon
K=$G/runs/run142/kernels
gpu() { TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 560 python bench/gluon_gpu.py "$@" --timeout 40 2>&1 \
          | tee -a $OUT/run142.log | grep -v "^\s*$"; }
case "${1:-c}" in
  c) gpu $G/liger_grpo_selective_log_softmax $G/tut09_range_attrs_bias_gelu $G/triton_kernels_mxfp4_upcast_gemm \
         $G/inductor_embedding_rms_norm $G/fla_wy_repr_bwd $G/flaggems_mm_peeled $G/flagattn_bwd_kv --sizes 4096 \
         --out $OUT/gpu142c.json ;;
  a) D=""; for k in $(cat $K/LONG); do D="$D $G/$k $K/$k"; done
     gpu $D --no-baselines --sizes 4096 --out $OUT/gpu142a.json
     bash $0 mx ;;
  b) D=""; for k in $(cat $K/SHORT); do D="$D $K/$k"; done
     gpu $D --no-baselines --sizes 0 --out $OUT/gpu142b.json ;;   # checks only: the timed problem runs the long kernel
  mx) # the MXFP4 upcast GEMM's compile failure of c, with its whole traceback
     PYTHONPATH=. timeout 120 python bench/gluon_gpu.py --one $G/triton_kernels_mxfp4_upcast_gemm --sizes 4096 \
       > $OUT/mx142.log 2>&1; tail -c 6000 $OUT/mx142.log ;;
esac
