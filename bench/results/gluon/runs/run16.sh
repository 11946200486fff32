#!/usr/bin/env bash
# Run 16 on the GPU machine (session 15): where each partition's time goes, by PC sampling (ncu).
#   a: bench/gluon_stalls.py on the committed fa_bwd, fa3, gemm and the hand-edited fa_bwd-one-fence (runs/run16/mk16.py),
#      then twill validate --stalls on the GEMM (the capture inside validate, end to end);
#   b: fa_bwd-one-fence: correctness, then against the committed fa_bwd in the same rounds;
#   c: the GPU tests of twill validate on the Gluon GEMM, the stall capture among them;
#   d: twill validate --stalls of the FA forward (a complete profile and its sample in one validation);
#   e: the FA forward head to head with cuDNN again (d's one-shot timing had cuDNN ahead at 4k).
set -u
G=bench/results/gluon
R=$G/runs/run16
case "${1:-a}" in
a)
  PYTHONPATH=. timeout 300 python bench/gluon_stalls.py $G/fa_bwd $G/fa3 $G/gemm $R/fa_bwd-one-fence --out $OUT/stalls \
    2>&1 | tee $OUT/run16a.log
  PYTHONPATH=. timeout 280 python -m twill validate kernels/gemm.py --arch h200 --schedule $G/gemm --per-run 2 --budget 60 \
    --stalls -o $OUT/validate-gemm 2>&1 | tee -a $OUT/run16a.log
  ;;
b)
  PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $R/fa_bwd-one-fence --sizes 4096 --out $OUT/gpu-one-fence.json \
    2>&1 | tee $OUT/run16b.log
  PYTHONPATH=. timeout 330 python bench/gluon_vs.py $G/fa_bwd $R/fa_bwd-one-fence --rounds 5 \
    --sizes 1024,4096,16384 --out $OUT/vs-fa_bwd.json 2>&1 | tee -a $OUT/run16b.log
  ;;
c)
  timeout 560 python -m pytest -q -s tests/gpu/test_gpu_validate.py -k "gluon_gemm or stall_capture" -p no:cacheprovider \
    2>&1 | tail -40 | tee $OUT/run16c.log
  ;;
d)
  PYTHONPATH=. timeout 560 python -m twill validate kernels/fa3.py --arch h200 --schedule $G/fa3 --per-run 2 --budget 110 \
    --stalls -o $OUT/validate-fa3 2>&1 | tee $OUT/run16d.log
  (cd $OUT && tar czf validate-fa3.tgz validate-fa3 && rm -rf validate-fa3)
  ;;
e)
  PYTHONPATH=. timeout 560 python bench/gluon_vs.py $G/fa3 --rounds 5 --sizes 1024,4096,16384 --out $OUT/vs-fa3.json \
    2>&1 | tee $OUT/run16e.log
  ;;
esac
