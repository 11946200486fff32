#!/usr/bin/env bash
# Run 21 on the GPU machine (session 20).
#   a: causal attention's tiles in serpentine order along axis 0 (kernel.serpentine: every other pass over the
#      query blocks backwards, so each program's sum of heavy and light tiles evens out) against the plain order
#      committed before (runs/run21/fa_causal-plain), correctness of the new kernel, then both in the same rounds
#      with cuDNN's and flash's causal SDPA and Triton's own compile.
#      Then the peeled-K GEMM (tests/corpus/tail_loop_gemm.py) and the GEMM regenerated: the producer carries the
#      tail's pointer tiles in its copies' layout (2.6 KB spilled before), and a loop's last wait names only what
#      the code after it reads (ptxas serialised the tail GEMM's wgmmas before).
#   b: twill validate of the causal kernel: correctness, speed, the per-partition Proton profile of the scheduled
#      loop (now found inside its zero-trip guard), measured against predicted.
#   c: the peeled GEMM with its producer's two equal copies of each pointer tile merged by hand
#      (runs/run21/tail_gemm-dedup) against the generated one, to learn whether they hold it under the pointer GEMM.
set -u
G=bench/results/gluon
R=$G/runs/run21
case "${1:-a}" in
a)
  PYTHONPATH=. timeout 300 python bench/gluon_gpu.py $G/fa_causal $G/tail_gemm $G/gemm --sizes 1024,4096,16384 \
    --out $OUT/gpu21a.json 2>&1 | tee $OUT/run21a.log
  PYTHONPATH=. timeout 250 python bench/gluon_vs.py $R/fa_causal-plain $G/fa_causal --rounds 7 --sizes 1024,4096,16384 \
    --out $OUT/vs21a.json 2>&1 | tee -a $OUT/run21a.log
  ;;
b)
  PYTHONPATH=. timeout 400 python -m twill validate tests/corpus/causal_attention.py --arch h200 --schedule $G/fa_causal \
    --per-run 2 --budget 120 -o $OUT/validate-causal 2>&1 | tee $OUT/run21b.log
  ;;
c)
  PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $R/tail_gemm-dedup --out $OUT/gpu21c.json 2>&1 | tee $OUT/run21c.log
  PYTHONPATH=. timeout 200 python bench/gluon_vs.py $G/tail_gemm $R/tail_gemm-dedup --rounds 7 \
    --out $OUT/vs21c.json 2>&1 | tee -a $OUT/run21c.log
  ;;
esac
