#!/usr/bin/env bash
# Run 13 on the GPU machine (session 12):
#   a: FlashAttention-3's intra-warpgroup order on both consumers (each issues QK(j), then PV(j-1), waits for QK(j)
#      alone, runs the softmax of S(j) while PV(j-1) is on the tensor core, then waits for PV(j-1) and rescales O),
#      first as a hand-edited kernel (runs/run13/fa3-intrawg-hand: is the order worth generating?), correctness
#      (bench/gluon_gpu.py: NaN-poisoned outputs, two seeds) and A/B against the default fa3 in the same rounds;
#   b: `run13.sh b gemm:gemm fa3:fa3`, `run13.sh b fa_bwd:fa_bwd`: `twill validate` of the committed Gluon kernels (GEMM, FA forward, FA backward): correctness, speed against
#      Triton and the library, the per-partition profile against the replayed prediction;
#   c: the GPU test of `twill validate` on a Gluon kernel.
set -u
G=bench/results/gluon
R=$G/runs/run13
case "${1:-a}" in
a)
  PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $R/fa3-intrawg-hand --sizes 1024,16384 --out $OUT/gpu-hand.json 2>&1 \
    | tee $OUT/run13a.log
  PYTHONPATH=. timeout 330 python bench/gluon_vs.py $G/fa3 $R/fa3-intrawg-hand --rounds 5 --out $OUT/vs-fa3.json 2>&1 \
    | tee -a $OUT/run13a.log
  ;;
b)    # run13.sh b VARIANT:KERNEL_FILE_STEM ...
  for k in "${@:2}"; do
    PYTHONPATH=. timeout 280 python -m twill validate kernels/${k#*:}.py --arch h200 --schedule $G/${k%%:*} \
      --budget 60 -o $OUT/validate/${k%%:*} 2>&1 | tee -a $OUT/run13b.log
  done
  ;;
c)
  PYTHONPATH=. timeout 300 python -m pytest -q tests/gpu/test_gpu_validate.py -k gluon 2>&1 | tail -4 | tee $OUT/run13c.log
  ;;
esac
