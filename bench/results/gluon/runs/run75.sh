#!/usr/bin/env bash
# Run 75 on the GPU machine (session 41): every committed kernel whose register-read pointer tile a wgmma reads could
# be copied by its consumer with cp.async (copy_wgmma; run 74: torchao int8 weight-only x0.51 -> x0.86), the committed
# kernel and the probe (probe/cw/<label>, regenerated from the committed schedule with copy_wgmma on) timed in the same
# process against the same Triton baseline.
set -u
G=bench/results/gluon
for v in w8a16_gemm int4_gemm w4a16_gemm mamba_chunk_state lightning_attention chunk_kkt chunk_scan fla_chunk_h \
         fla_fused_chunk_retention; do
  if [ $SECONDS -gt 420 ]; then echo "$v: not run (past 420 s)" | tee -a $OUT/run75.log; continue; fi
  PYTHONPATH=. timeout 100 python bench/gluon_gpu.py $G/$v probe/cw/$v --sizes 16384 --out /tmp/g75-$v.json 2>&1 \
    | tail -4 | tee -a $OUT/run75.log
  cat /tmp/g75-$v.json >> $OUT/gpu75.jsonl 2>/dev/null; echo >> $OUT/gpu75.jsonl
done
