"""Offline: committed Gluon variants regenerated with every ring deeper than ``ring_depth`` gives (run 63's probe).

    python bench/ring_depth_probe.py LABEL:EXTRA [LABEL:EXTRA ...] [--out probe]

Each ``LABEL:EXTRA`` writes ``OUT/LABEL_dEXTRA``: the committed variant ``bench/results/gluon/LABEL`` regenerated
from its stored schedule with ``EXTRA`` more buffers in each ring, for `bench/gluon_gpu.py` to time beside the
committed kernel (`bench/results/gluon/runs/run63/run63.sh`). The directories are probes: not committed. No GPU, no
solver.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from codegen.gluon import plan  # noqa: E402
from gluon_variants import regenerate  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("specs", nargs="+", help="LABEL:EXTRA")
    ap.add_argument("--out", default="probe")
    a = ap.parse_args()
    base = plan.ring_depth
    try:
        for spec in a.specs:
            label, _, extra = spec.rpartition(":")
            src, dst = ROOT / "bench/results/gluon" / label, Path(a.out) / f"{label}_d{extra}"
            if not extra.isdigit() or not (src / "gluon.json").is_file():
                print(f"ring_depth_probe: expected LABEL:EXTRA, a committed variant (bench/results/gluon/LABEL/"
                      f"gluon.json) and a count of buffers, found {spec!r}", file=sys.stderr)
                return 2
            shutil.rmtree(dst, ignore_errors=True)
            shutil.copytree(src, dst)
            meta = json.loads((dst / "variant.json").read_text())
            (dst / "variant.json").write_text(json.dumps(dict(meta, label=dst.name)))
            plan.ring_depth = lambda *args, e=int(extra), **kw: base(*args, **kw) + e
            (dst / "kernel_gluon.py").write_text("")          # regenerate() writes only a changed kernel
            print(dst, regenerate(dst), *re.findall(r"^- ring .*$", (dst / "kernel_gluon.py").read_text(), re.M))
    finally:
        plan.ring_depth = base
    return 0


if __name__ == "__main__":
    sys.exit(main())
