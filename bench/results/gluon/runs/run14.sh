#!/usr/bin/env bash
# Run 14 on the GPU machine (session 13): ablations of the committed kernels, to say what each gap is made of.
#   a: the FA backward: fa_bwd (committed), fa_bwd-acc-atomic (dQ's atomic add from the wgmma accumulator's own layout,
#      no convert_layout through shared memory; correct), fa_bwd-no-dq (the dQ GEMM and its atomics removed: dQ wrong,
#      timing only: what the dQ path costs); correctness of fa_bwd-acc-atomic, then all three in the same rounds;
#   b: the GEMM: gemm (3-deep A/B rings, one 64 KB C buffer) against gemm-ring4 (4-deep rings, C stored in two halves
#      through one 32 KB buffer), correctness then head to head with cuBLAS in the same rounds;
#   c: fa_bwd-dq-split (FlashAttention-3's split of dQ along the head dimension, by hand) against fa_bwd;
#   d: fa_bwd-dq-split-store (its atomics replaced by plain stores: what the atomics cost);
#   e: twill validate of the FA backward with a profile budget of 330 s (run 13's 60 s left 39 of 53 regions unmeasured).
set -u
G=bench/results/gluon
R=$G/runs/run14
case "${1:-a}" in
a)
  PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $R/fa_bwd-acc-atomic --sizes 4096 --out $OUT/gpu-fa_bwd.json 2>&1 \
    | tee $OUT/run14a.log
  PYTHONPATH=. timeout 300 python bench/gluon_vs.py $G/fa_bwd $R/fa_bwd-acc-atomic $R/fa_bwd-no-dq --rounds 5 \
    --sizes 4096,16384 --out $OUT/vs-fa_bwd.json 2>&1 | tee -a $OUT/run14a.log
  ;;
b)
  PYTHONPATH=. timeout 120 python bench/gluon_gpu.py $R/gemm-ring4 --out $OUT/gpu-gemm.json 2>&1 | tee $OUT/run14b.log
  PYTHONPATH=. timeout 200 python bench/gluon_vs.py $G/gemm $R/gemm-ring4 --rounds 9 --out $OUT/vs-gemm.json 2>&1 \
    | tee -a $OUT/run14b.log
  ;;
c)    # the FA backward's dQ split along the head dimension (runs/run14/mk14c.py), correctness then against fa_bwd
  PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $R/fa_bwd-dq-split --sizes 4096 --out $OUT/gpu-dq-split.json 2>&1 \
    | tee $OUT/run14c.log
  PYTHONPATH=. timeout 300 python bench/gluon_vs.py $G/fa_bwd $R/fa_bwd-dq-split --rounds 5 --sizes 1024,4096,16384 \
    --out $OUT/vs-dq-split.json 2>&1 | tee -a $OUT/run14c.log
  ;;
d)    # what the atomics cost after the split: plain stores to the same addresses (dQ wrong, timing only)
  PYTHONPATH=. timeout 200 python bench/gluon_vs.py $R/fa_bwd-dq-split $R/fa_bwd-dq-split-store --rounds 5 --sizes 4096,16384 \
    --out $OUT/vs-dq-split-store.json 2>&1 | tee $OUT/run14d.log
  ;;
e)    # twill validate of the committed FA backward with a profile budget that measures every region
  PYTHONPATH=. timeout 570 python -m twill validate kernels/fa_bwd.py --arch h200 --schedule $G/fa_bwd --per-run 3 \
    --budget 330 -o $OUT/validate/fa_bwd 2>&1 | tee $OUT/run14e.log
  ;;
esac
