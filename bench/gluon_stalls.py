"""On the GPU: where each partition of generated Gluon kernels spends its time, by PC sampling (ncu).

    python bench/gluon_stalls.py DIR [DIR ...] --out OUTDIR [--problem '{"N": 16384}']

For each DIR (a ``twill optimize`` output with ``kernel_gluon.py``, ``gluon.json`` and ``variant.json``):
``profiling.stalls.capture`` samples one launch of the kernel on its kernel file's problem, writes
``OUTDIR/<label>.stalls.json.gz`` (feed it to ``twill validate --profile P --stalls FILE`` offline) and
prints per partition the causes of its time. Imports no solver.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from profiling.stalls import attribute, capture, write  # noqa: E402
from twill.errors import TwillError  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="+", type=Path)
    ap.add_argument("--out", required=True, type=Path)
    ap.add_argument("--problem", default="{}", help="JSON overrides of the kernel file's PROBLEM")
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    summary = {}
    for d in a.dirs:
        meta = json.loads((d / "variant.json").read_text())
        gj = json.loads((d / "gluon.json").read_text())
        try:
            rec = capture(meta["kernel_file"], d, kernel=gj["gluon"]["kernel"]["kernel"], problem=json.loads(a.problem))
        except TwillError as e:
            print(f"{d.name}: {e}")
            return 1
        write(a.out / f"{d.name}.stalls.json.gz", rec)
        att = attribute(rec, (d / "kernel_gluon.py").read_text(), gj.get("warp", {}))
        summary[d.name] = att
        print(f"{d.name} on {rec.get('gpu')} ({rec.get('problem')}, {att['samples']} samples):")
        for p in att["partitions"]:
            print(f"  {p['function']} ({p['warps']} warps, {p['samples']} samples): "
                  + ", ".join(f"{c} {v:.1%}" for c, v in p["causes"].items())
                  + f"; outside every region {p['outside']:.1%}")
    (a.out / "stalls-summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
