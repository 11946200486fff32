#!/usr/bin/env bash
# Run 218 (c) (session 86, #17): run 218's validate crashed on its first sampled run (tma_load0_k and dot0_qk, one
# iteration in 2: CUDA error 700). Each region set in a process of its own (a fault ends the process's context), the
# instrumented output checked against the plain kernel's.
set -u
OUT=${OUT:-/tmp/run218c}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > "$OUT/gpu.txt"
S=bench/results/schedules/fa3-h200
for spec in "tma_load0_k,dot0_qk 2" "tma_load0_k,dot0_qk 1" "tma_load0_k 2" "dot0_qk 2" "sfu0_p 2" "all 2" \
            "reduce0_m_ij,elementwise0_m_ij 2"; do
  set -- $spec
  PYTHONPATH=. timeout 60 python bench/profile_sampling.py kernels/fa3.py --schedule $S --regions $1 --every $2 \
    --rounds 1 2>&1 | tail -4 >> "$OUT/sampling.log"
done
[ -n "${NO_PACK:-}" ] || bash bench/results/gluon/runs/device_tree.sh pack "$OUT"
