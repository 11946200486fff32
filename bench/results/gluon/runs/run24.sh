#!/usr/bin/env bash
# Run 24 on the GPU machine (session 22).
#   a: the corpus kernels the Gluon back end now writes (online_softmax: two loops carrying no tile, the first
#      no value; rms_norm_bwd: an address two loads share): correct against their references, timed against
#      Triton's own; then the FA backward with the registers 240 / 240 / 24 (runs/run24/mk24.py) head to head
#      with the committed one, and the GPU tests of every committed Gluon kernel.
set -u
G=bench/results/gluon
R=$G/runs/run24
case "${1:-a}" in
a)
  PYTHONPATH=. timeout 240 python bench/gluon_gpu.py $G/online_softmax $G/rms_norm_bwd \
    --out $OUT/gpu24a.json 2>&1 | tee $OUT/run24a.log
  PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $R/fa_bwd-regs240 --sizes 1024 \
    --out $OUT/gpu24a-bwd.json 2>&1 | tee -a $OUT/run24a.log
  PYTHONPATH=. timeout 300 python bench/gluon_vs.py $G/fa_bwd $R/fa_bwd-regs240 --rounds 5 \
    --sizes 4096,16384 --out $OUT/vs24a.json 2>&1 | tee -a $OUT/run24a.log
  PYTHONPATH=. timeout 400 python -m pytest -q tests/gpu/test_gpu_gluon.py 2>&1 | tail -25 | tee -a $OUT/run24a.log
  ;;
esac
# b: the same two corpus kernels regenerated with no producer (nothing to stream: one partition, no warp_specialize,
#    registers as ptxas allocates them, not persistent), and their GPU tests.
case "${1:-a}" in
b)
  PYTHONPATH=. timeout 240 python bench/gluon_gpu.py $G/online_softmax $G/rms_norm_bwd \
    --out $OUT/gpu24b.json 2>&1 | tee $OUT/run24b.log
  PYTHONPATH=. timeout 300 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "online_softmax or rms_norm_bwd" \
    2>&1 | tail -5 | tee -a $OUT/run24b.log
  ;;
esac
# c: row_absmax (a whole-block tl.max: Triton's tt.reshape), added in the session's review: correct, timed.
case "${1:-a}" in
c)
  PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $G/row_absmax --out $OUT/gpu24c.json 2>&1 | tee $OUT/run24c.log
  PYTHONPATH=. timeout 200 python -m pytest -q tests/gpu/test_gpu_gluon.py -k "row_absmax or online_softmax" \
    2>&1 | tail -3 | tee -a $OUT/run24c.log
  ;;
esac
