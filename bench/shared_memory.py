"""How much an iteration of each committed Gluon kernel moves through shared memory, and what that costs at the SM's
rate, beside what its schedule predicts (offline: the kernels compiled for sm_90 by Triton's ptxas, no GPU).

    python bench/shared_memory.py [LABEL ...] [--arch h200]

LABEL: a variant directory under bench/results/gluon (default: the GEMM, the FA forward plain, sub-tiled and causal,
the FA backward). The count is ``twill.validate_gluon.shared_traffic``'s: the wgmmas' operands and the stores in the
consumers' loops (SASS), and the tiles copied in (the graph); loads are left out, so it is a lower bound. A kernel
whose count exceeds its prediction cannot run at its schedule's period (``docs/profiling.md``).
"""
from __future__ import annotations

import argparse
import datetime
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from twill.machine.model import load_machine  # noqa: E402
from twill.validate_gluon import shared_traffic  # noqa: E402

G = ROOT / "bench/results/gluon"
DEFAULT = ["gemm", "fa3", "fa3_subtiled", "fa_causal", "fa_bwd"]


def row(label: str, arch: str) -> str:
    d = G / label
    source = (d / "kernel_gluon.py").read_text()
    m = re.search(r"([\d.]+) cycles per iteration predicted", source)
    predicted = float(m.group(1)) if m else None
    t = shared_traffic(source, json.loads((d / "gluon.json").read_text()), load_machine(arch))
    if t is None:
        return f"{label:<14} (no consumer wgmma loop read from the SASS)"
    over = f"{t['cycles'] / predicted:5.2f}" if predicted else "  -  "
    return (f"{label:<14} {t['bytes_per_iteration'] / 1024:8.0f} {t['wgmma_operands'] / 1024:8.0f} "
            f"{t['stores'] / 1024:7.0f} {t['copies_in'] / 1024:7.0f} {t['cycles']:8.0f} "
            f"{predicted if predicted is not None else '-':>10} {over}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("labels", nargs="*", default=DEFAULT)
    ap.add_argument("--arch", default="h200")
    a = ap.parse_args()
    missing = [x for x in a.labels if not (G / x / "kernel_gluon.py").is_file() or not (G / x / "gluon.json").is_file()]
    if missing:
        print(f"bench/shared_memory.py: no committed Gluon kernel {missing[0]!r} (expected a directory under "
              f"{G.relative_to(ROOT)} with kernel_gluon.py and gluon.json)", file=sys.stderr)
        return 2
    import triton
    print(f"# {datetime.date.today()}, offline (ptxas of triton {triton.__version__}, sm_90), "
          f"python bench/shared_memory.py {' '.join(sys.argv[1:])}".rstrip())
    print(f"# {'kernel':<12} {'KB/iter':>8} {'wgmma':>8} {'stores':>7} {'copies':>7} {'cycles':>8} {'predicted':>10} "
          f"ratio  (cycles at {load_machine(a.arch).rate('smem_bytes'):.0f} B a clock)")
    for label in a.labels:
        print(row(label, a.arch), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
