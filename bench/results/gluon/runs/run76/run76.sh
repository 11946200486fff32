#!/usr/bin/env bash
# Run 76 (session 41): persistent kernels whose early returns read the program ids, taken per tile in each partition
# (kernel.tile_guards): the committed kernel (one CTA per tile, the guard before the partitions) and the persistent
# one (probe/r76/<label>_pt), checked and timed in one process against one Triton baseline.
set -u
G=bench/results/gluon
for v in guarded_gemm splitk_guarded inductor_persistent_tma_mm varlen_attention jagged_silu_attention; do
  if [ $SECONDS -gt 330 ]; then echo "$v: not run (past 330 s)" | tee -a $OUT/run76.log; continue; fi
  PYTHONPATH=. timeout 100 python bench/gluon_gpu.py $G/$v probe/r76/${v}_pt --sizes 16384 --out /tmp/g76-$v.json \
    2>&1 | tail -4 | tee -a $OUT/run76.log
  cat /tmp/g76-$v.json >> $OUT/gpu76.jsonl 2>/dev/null; echo >> $OUT/gpu76.jsonl
done
