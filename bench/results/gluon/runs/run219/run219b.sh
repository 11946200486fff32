#!/usr/bin/env bash
# Run 219 (b) (session 87): sglang's EP pre-reorder again, its harness reading this rank's rows on the host in
# make_inputs (run 219's launch synced on seg_indptr inside the CUDA graph's capture: both kernels' timings failed).
# And count_then_channel_nest: its atomic counter now written once, before the partitions (it had run once per tile).
set -u
OUT=${OUT:-/tmp/run219b}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv > "$OUT/gpu.txt"
export TRITON_CACHE_DIR=$(mktemp -d)
TWILL_BENCH_CONFIGS=0 PYTHONPATH=. timeout 200 python bench/gluon_gpu.py bench/results/gluon/sglang_ep_pre_reorder bench/results/gluon/count_then_channel_nest \
  --sizes 4096 --timeout 120 --out $OUT/gpu219b.json > $OUT/run219b.log 2>&1
grep -vi warning $OUT/run219b.log | tail -5
bash bench/results/gluon/runs/device_tree.sh pack "$OUT"
