#!/usr/bin/env bash
# Run 79 (session 42): one partition loading its own tiles (own_tiles) against the committed producer + consumer
# kernel, for the committed kernels whose tensor-core work an iteration is 256 cycles or less (run 78: Mamba's
# chunk state x0.59 -> x0.90, bmm x0.65 -> x0.75 so), each pair against one Triton baseline.
set -u
G=bench/results/gluon
for v in chunk_state chunk_scan fla_chunk_o lora_shrink fla_chunk_h int4_gemm gptq_gemm prefix_scores grouped_matmul \
         sglang_fused_moe_fp8; do
  if [ $SECONDS -gt 480 ]; then echo "$v: not run (past 480 s)" | tee -a $OUT/run79.log; continue; fi
  PYTHONPATH=. timeout 100 python bench/gluon_gpu.py $G/$v probe/r79/${v}_own --sizes 16384 --out $OUT/gpu79-$v.json \
    2>&1 | tail -3 | tee -a $OUT/run79.log
done
