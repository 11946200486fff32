#!/usr/bin/env bash
# Run 209 (session 82, #17): the single regions run 208 left over x1.05 (FA forward, consumer 1's; FA backward's two
# worst), each timed with %clock and %clock64 twice, to tell the clock read's cost from the timing noise.
set -u
OUT=${OUT:-/tmp/run209}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv | tee "$OUT/gpu.txt"
PYTHONPATH=. timeout 280 python - <<'PY' 2>&1 | tee "$OUT/run209.log"
import json, tempfile
from pathlib import Path
from profiling.gluon_profile import Variant, plain_timing
from profiling.gluon_sums import with_gaps
from profiling.gluon_sums_run import sums_run
todo = {"fa3": ("kernels/fa3.py", "_attn_fwd", ["p1:sfu1_alpha_s1", "p1:reduce1_l_ij_s1", "p1:wait:v_ready",
                                                "p1:elementwise1_acc_s1", "p0:sfu1_alpha_s0"]),
        "fa_bwd": ("kernels/fa_bwd.py", "_attn_bwd", ["p0:load1_Di_s0", "p1:wait:dot2_dpT_s1"])}
for label, (kf, jit, regions) in todo.items():
    d = Path("bench/results/gluon") / label
    meta = json.loads((d / "variant.json").read_text())
    with tempfile.TemporaryDirectory() as tmp:
        v = Variant(d, Path(tmp), kf, meta)
        plain_timing(v)
        v.ks = with_gaps(v.source, v.ks)
        for r in regions:
            for rep in range(2):
                for clock in ("clock", "clock64"):
                    x = sums_run(v, (r,), f"s{rep}{clock}{abs(hash(r)) % 1000}", clock)
                    f = {p: round(g[r], 1) for p, g in x["figures"].items() if r in g}
                    print(f"{label} {r} {clock} rep {rep}: x{x['overhead']} {f}", flush=True)
PY
