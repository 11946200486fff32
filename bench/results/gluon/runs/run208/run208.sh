#!/usr/bin/env bash
# Run 208 (session 81, #17): which clock read costs the FA forward's consumers less (%clock: S2UR into a uniform
# register; %clock64: CS2R then R2UR), on run 207's two planned runs; then --sums auto's halving (each run over x1.05
# measured again in halves) with the cheaper one.
set -u
OUT=${OUT:-/tmp/run208}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv | tee "$OUT/gpu.txt"
PYTHONPATH=. timeout 200 python - <<'PY' 2>&1 | tee "$OUT/run208.log"
import json, os, tempfile, time
from pathlib import Path
from profiling.gluon_profile import Variant, plain_timing
from profiling.gluon_sums import with_gaps
from profiling.gluon_sums_run import sums_profile, sums_run
d = Path("bench/results/gluon/fa3")
meta = {"label": "fa3", "kernel_file": "kernels/fa3.py", "jit": "_attn_fwd"}
plan = json.loads((d / "sums_plan.json").read_text())["runs"]
ab = {}
with tempfile.TemporaryDirectory() as tmp:
    v = Variant(d, Path(tmp), "kernels/fa3.py", meta)
    plain_timing(v)
    v.ks = with_gaps(v.source, v.ks)
    for clock in ("clock", "clock64"):
        for j, r in enumerate(plan):
            x = sums_run(v, tuple(r["regions"]), f"ab{clock}{j}{len(ab)}", clock)
            ab.setdefault(clock, []).append(x["overhead"])
            loops = {p: round(f["loop"], 1) for p, f in x["figures"].items() if f.get("trips")}
            print(f"{clock} run {j} ({len(r['regions'])} regions): x{x['overhead']}, loops {loops}", flush=True)
best = min(ab, key=lambda c: sum(ab[c]))
print("cheaper:", best, ab, flush=True)
Path(os.environ.get("OUT", "/tmp"), "cheaper.txt").write_text(best)
t = time.time()
prof = sums_profile(d, "kernels/fa3.py", meta, "auto", clock=best)
print(f"{time.time() - t:.0f} s; runs kept {len(prof['runs'])}, halved {len(prof['split_runs'])}; worst kept "
      f"x{max(r['overhead'] for r in prof['runs'])}")
for r in prof["runs"]:
    print(f"  {r['label']} x{r['overhead']} {len(r['regions'])}: {' '.join(r['regions'])}")
Path(os.environ.get("OUT", "/tmp"), "fa3-auto-profile.json").write_text(json.dumps(prof, indent=1))
PY
# session 82: the GEMM's and the FA backward's sums profiles (run 207 lost both: 8 files a call), with the cheaper clock,
# every run over x1.05 measured again in halves (the FA backward's ten runs read from its committed sums_plan.json)
C=$(cat "$OUT/cheaper.txt" 2>/dev/null || echo clock)
for k in gemm:60 fa_bwd:260; do
  PYTHONPATH=. timeout "${k#*:}" python bench/gluon_sums.py "bench/results/gluon/${k%%:*}" --per-run auto --clock "$C" \
    --json "$OUT/${k%%:*}-sums.json" 2>&1 | tee "$OUT/${k%%:*}-sums.log"
done
bash bench/results/gluon/runs/device_tree.sh pack "$OUT"
