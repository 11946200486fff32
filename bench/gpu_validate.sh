#!/usr/bin/env bash
# GPU machine: `twill validate` on the committed H200 schedules (GEMM, FA forward); writes under $OUT.
# Kept as plain files (8 in all, what the device machine sends back): validate-log.txt and, per kernel,
# validate-<k>-h200/{validation.json, schedule.html, profile.json}; the rest (the profiled
# annotated.d<depth>.ttgir, Proton's chrome trace, the Perfetto trace) in validate-extra.tgz.
# Exit status: how many validations failed.
set -u
OUT=${OUT:-gpu-validate-out}
export PYTHONPATH=${PYTHONPATH:-.}
mkdir -p "$OUT"

validate_all() {
  local failed=0 k
  for k in gemm fa3; do
    echo "== twill validate kernels/$k.py --arch h200 --schedule bench/results/schedules/$k-h200"
    python3 -m twill.cli validate "kernels/$k.py" --arch h200 --schedule "bench/results/schedules/$k-h200" \
      -o "$OUT/validate-$k-h200" || failed=$((failed + 1))
    if [ -f "$OUT/validate-$k-h200/profile/profile.json" ]; then
      cp "$OUT/validate-$k-h200/profile/profile.json" "$OUT/validate-$k-h200/profile.json"
    fi
  done
  return "$failed"
}

validate_all 2>&1 | tee "$OUT/validate-log.txt"
rc=${PIPESTATUS[0]}
(cd "$OUT" && ls -d validate-*-h200/profile validate-*-h200/annotated.d*.ttgir 2>/dev/null \
  | xargs -r tar czf validate-extra.tgz --remove-files)
exit "$rc"
