#!/usr/bin/env bash
# Run 208 (session 81, #17): the FA forward's region sums with --sums auto's halving: each run that costs the kernel
# more than x1.05 measured again in halves (profiling/gluon_sums_run.py), from the SASS plan's two runs (27 + 7).
set -u
OUT=${OUT:-/tmp/run208}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv | tee "$OUT/gpu.txt"
PYTHONPATH=. timeout 420 python - <<'PY' 2>&1 | tee "$OUT/run208.log"
import json, os, time
from pathlib import Path
from profiling.gluon_sums_run import sums_profile
t = time.time()
prof = sums_profile(Path("bench/results/gluon/fa3"), "kernels/fa3.py",
                    {"label": "fa3", "kernel_file": "kernels/fa3.py", "jit": "_attn_fwd"}, "auto")
print(f"{time.time() - t:.0f} s; runs kept {len(prof['runs'])}, halved {len(prof['split_runs'])}; worst kept "
      f"x{max(r['overhead'] for r in prof['runs'])}")
for r in prof["runs"]:
    print(f"  {r['label']} x{r['overhead']} {len(r['regions'])}: {' '.join(r['regions'])}")
Path(os.environ["OUT"], "fa3-auto-profile.json").write_text(json.dumps(prof, indent=1))
PY
