#!/usr/bin/env bash
# Run 69 on the GPU machine (session 41): stream-K after its fix (the producer's ring base advanced by the trip count
# taken before the tile loop's hand-on), and five sweep kernels never run on the GPU: checked (two seeds, SMALL and
# PROBLEM, twice) and timed from CUDA graphs against Triton's best of the same file.
set -u
G=bench/results/gluon
for v in streamk_gemm liger_kldiv_bwd torchao_fp8_blockwise_act_quant sglang_fused_moe_fp8 \
         mamba_selective_state_update_dimloop nf4_dequant_gemv; do
  if [ $SECONDS -gt 300 ]; then echo "$v: not run (past 300 s)" | tee -a $OUT/run69.log; continue; fi
  PYTHONPATH=. timeout 90 python bench/gluon_gpu.py $G/$v --sizes 16384 --out /tmp/g69-$v.json 2>&1 | tail -3 \
    | tee -a $OUT/run69.log
  cat /tmp/g69-$v.json >> $OUT/gpu69.jsonl 2>/dev/null; echo >> $OUT/gpu69.jsonl
done
