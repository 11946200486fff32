#!/usr/bin/env bash
# Run 109 on the GPU machine (session 50): (a) the FA backward: committed (column split), its schedule with the
# consumers at 240 registers (the one-warp group at 24), and a fresh `twill optimize` this session (II = 242, 43 spill
# instructions a trip against the committed 243's 23); (b) FLA's solve_tril generated at 1, 2, 4 (committed) and 8
# warps, against Triton's autotuned launch.
set -u
G=bench/results/gluon
R=$G/runs/run109
PYTHONPATH=. timeout 260 python bench/gluon_gpu.py $G/fa_bwd $R/fa_bwd-regs24 $R/fa_bwd-fresh --sizes 16384 \
  --out $OUT/gpu109-bwd.json 2>&1 | tee -a $OUT/run109.log
PYTHONPATH=. timeout 200 python bench/gluon_gpu.py $G/fla_solve_tril $R/fla_solve_tril-w1 $R/fla_solve_tril-w2 \
  $R/fla_solve_tril-w8 --sizes 16384 --timeout 60 --out $OUT/gpu109-tril.json 2>&1 | tee -a $OUT/run109.log
