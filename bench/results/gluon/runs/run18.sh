#!/usr/bin/env bash
# Run 18 on the GPU machine (session 17).
#   a: the FA backward's reducer adding dQ with TMA reduce-adds (runs/run18/mk18.py) and the FA forward with part of
#      its exp2 on the FMA pipe (runs/run18/mk18_fa3.py, 1/8 and 1/4 of the columns): each checked against its
#      reference, then head to head with the committed kernel in the same rounds, then a PC sample of the backward.
#   c: the FA backward's producer warp reducing half of each dQ partial (runs/run18/mk18_split.py).
#   d: the host's cost of one launch (bench/launch_overhead.py).
#   e: the generated FA backward with the producer's share of the reduction, against run 17's and the hand variant.
#   f: twill validate of the FA backward, the reduction's regions in the reducer and the producer.
#   g: a kernel with its own tile loop (tests/corpus/persistent_tma_gemm.py), generated, checked and timed.
#   b: the GEMM's A and B rings on one ready / empty barrier pair (runs/run18/mk18_gemm.py), against gemm and cuBLAS.
set -u
G=bench/results/gluon
R=$G/runs/run18
case "${1:-a}" in
a)
  PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $R/fa_bwd-tmared --sizes 1024,4096 --out $OUT/gpu-tmared.json \
    2>&1 | tee $OUT/run18a.log
  PYTHONPATH=. timeout 120 python bench/gluon_gpu.py $R/fa3-exp2poly8 $R/fa3-exp2poly4 --sizes 4096 \
    --out $OUT/gpu-exp2poly.json 2>&1 | tee -a $OUT/run18a.log
  PYTHONPATH=. timeout 200 python bench/gluon_vs.py $G/fa_bwd $R/fa_bwd-tmared --rounds 5 \
    --sizes 1024,4096,16384 --out $OUT/vs-fa_bwd.json 2>&1 | tee -a $OUT/run18a.log
  PYTHONPATH=. timeout 150 python bench/gluon_vs.py $G/fa3 $R/fa3-exp2poly8 $R/fa3-exp2poly4 --rounds 5 \
    --sizes 1024,4096,16384 --out $OUT/vs-fa3.json 2>&1 | tee -a $OUT/run18a.log
  PYTHONPATH=. timeout 100 python bench/gluon_stalls.py $R/fa_bwd-tmared --out $OUT/stalls 2>&1 | tee -a $OUT/run18a.log
  ;;
b)
  # the GEMM with its A and B rings on one barrier pair (runs/run18/mk18_gemm.py) against the committed GEMM and cuBLAS
  PYTHONPATH=. timeout 120 python bench/gluon_gpu.py $R/gemm-one-barrier --out $OUT/gpu-gemm.json 2>&1 | tee $OUT/run18b.log
  PYTHONPATH=. timeout 240 python bench/gluon_vs.py $G/gemm $R/gemm-one-barrier --rounds 15 --out $OUT/vs-gemm.json \
    2>&1 | tee -a $OUT/run18b.log
  PYTHONPATH=. timeout 100 python bench/gluon_stalls.py $R/gemm-one-barrier --out $OUT/stalls 2>&1 | tee -a $OUT/run18b.log
  ;;
c)
  # the FA backward with the producer warp reducing half of each dQ partial (runs/run18/mk18_split.py)
  PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $R/fa_bwd-red-split --sizes 1024,4096 --out $OUT/gpu-red-split.json \
    2>&1 | tee $OUT/run18c.log
  PYTHONPATH=. timeout 250 python bench/gluon_vs.py $G/fa_bwd $R/fa_bwd-red-split --rounds 5 --sizes 1024,4096,16384 \
    --out $OUT/vs-fa_bwd.json 2>&1 | tee -a $OUT/run18c.log
  PYTHONPATH=. timeout 100 python bench/gluon_stalls.py $R/fa_bwd-red-split --out $OUT/stalls 2>&1 | tee -a $OUT/run18c.log
  ;;
d)
  # the host's cost of a launch: Triton's kernel, the generated launcher, the Gluon dispatch alone, with profiles
  PYTHONPATH=. timeout 200 python bench/launch_overhead.py $G/fa3 $G/fa_bwd $G/gemm --size 1024 --profile 30 \
    --out $OUT/launch-overhead.json 2>&1 | tee $OUT/run18d.log
  ;;
e)
  # the producer's share of the reduction as the generator writes it (the committed fa_bwd), against run 17's kernel
  # (runs/run18/fa_bwd-run17) and the hand variant
  PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $G/fa_bwd --sizes 1024,4096 --out $OUT/gpu-fa_bwd.json 2>&1 \
    | tee $OUT/run18e.log
  PYTHONPATH=. timeout 300 python bench/gluon_vs.py $G/fa_bwd $R/fa_bwd-run17 $R/fa_bwd-red-split --rounds 5 \
    --sizes 1024,4096,16384 --out $OUT/vs-fa_bwd.json 2>&1 | tee -a $OUT/run18e.log
  ;;
f)
  # twill validate of the committed FA backward: correctness, speed, the per-partition profile (the reduction's
  # regions in the reducer and the producer) and the PC sample
  PYTHONPATH=. timeout 580 python -m twill validate kernels/fa_bwd.py --arch h200 --schedule $G/fa_bwd --per-run 3 \
    --budget 300 --stalls -o $OUT/validate/fa_bwd 2>&1 | tee $OUT/run18f.log
  ;;
g)
  # a kernel with its own tile loop: the generated kernel of tests/corpus/persistent_tma_gemm.py, checked and timed
  PYTHONPATH=. timeout 150 python bench/gluon_gpu.py $R/persistent_tma_gemm --out $OUT/gpu-persistent.json 2>&1 \
    | tee $OUT/run18g.log
  PYTHONPATH=. timeout 150 python bench/gluon_vs.py $R/persistent_tma_gemm --rounds 7 --out $OUT/vs-persistent.json \
    2>&1 | tee -a $OUT/run18g.log
  ;;
esac
