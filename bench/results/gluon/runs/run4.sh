#!/usr/bin/env bash
# Run 4 on the GPU machine (one call): A/B of the fa3 kernel solved under GROUP SEQUENCE + RETIREMENT and the
# written kernels' measured costs against run 3's kernel, interleaved twice; the other regenerated variants;
# the GPU Gluon tests; issue 15's capture of real launches into spec files.
set -u
G=bench/results/gluon
PYTHONPATH=. python bench/gluon_gpu.py $G/fa3 ab/fa3-run3 $G/fa3-no-tc-order $G/fa3 ab/fa3-run3 $G/fa3-no-tc-order \
  $G/fa3_subtiled $G/fa3-one-group $G/gemm $G/fa_bwd --timeout 150 --out $OUT/run4.json 2>&1 | tee $OUT/run4.log
for k in fa3 gemm; do
  PYTHONPATH=. timeout 120 python -m twill capture -o $OUT/spec_$k.json -- python kernels/$k.py > $OUT/capture_$k.log 2>&1
  echo "capture $k: exit $?" | tee -a $OUT/run4.log
done
PYTHONPATH=. timeout 240 python -m pytest -q tests/gpu/test_gpu_gluon.py 2>&1 | tail -5 | tee -a $OUT/run4.log
