#!/usr/bin/env bash
# GPU machine: the committed warp-specialized FA forward schedules (FA3's ping-pong from the joint
# search) checked and timed by bench/gpu_ws.py; writes $OUT/ws-log.txt and $OUT/<schedule>/gpu_ws.json.
# Exit status: how many runs failed (a failed correctness check counts).
set -u
OUT=${OUT:-gpu-ws-out}
export PYTHONPATH=${PYTHONPATH:-.}
mkdir -p "$OUT"

run_all() {
  local failed=0 d
  for d in fa3_subtiled-h200-ws fa3_subtiled-h200-ws-n64; do
    echo "== TWILL_WS_SCHEDULE=bench/results/schedules/$d python bench/gpu_ws.py $OUT/$d"
    TWILL_WS_SCHEDULE="bench/results/schedules/$d" python3 bench/gpu_ws.py "$OUT/$d" || failed=$((failed + 1))
  done
  return "$failed"
}

run_all 2>&1 | tee "$OUT/ws-log.txt"
exit "${PIPESTATUS[0]}"
