"""Offline: the generated kernels the profiles measured (kept beside them) replayed (codegen/gluon/replay.py)
with the model's costs and with the per-node costs their Proton profile measured, against the period that
profile measured per partition.

    python bench/gluon_replay.py [--out bench/results/gluon/replay.txt]

What the replay with measured op costs leaves unexplained is what the kernel does besides its graph's ops
and the waits the protocol implies (index arithmetic, the bar.sync of each arrive, Proton's record cost
mis-estimated, a tensor core slower than the model). The last column is the tensor-core cycles per dot (as a
factor on the model's) that would make the measured-cost replay match the measurement. No GPU, no solver.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from codegen.gluon.replay import Costs, measured_costs, model_costs, replay  # noqa: E402
from twill.machine.model import load_machine  # noqa: E402

G = ROOT / "bench/results/gluon"
# each profile with the kernel it measured, kept beside it (<profile dir>/kernels/<label>/): the committed variant
# may have been regenerated since (the FA backward's was)
CASES = [("gemm", "profile-run7/gemm.json"), ("fa3", "profile-run7/fa3.json"), ("fa_bwd", "profile-run6/fa_bwd.json")]
ARRIVE = 40        # cycles per mbarrier arrive (a 128-thread bar.sync and one arrive): an estimate, not measured


def _tc_factor(src: str, sig: dict, c: Costs, target: float) -> float | None:
    lo, hi = 0.5, 8.0
    def at(f: float) -> float:
        return replay(src, sig, dataclasses.replace(c, tensor={k: v * f for k, v in c.tensor.items()})).iteration()
    if at(hi) < target:
        return None
    for _ in range(30):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if at(mid) < target else (lo, mid)
    return round(hi, 3)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    issue = load_machine("h200").written_cost("wgmma_issue") or 0.0
    rows = [f"# bench/gluon_replay.py, {time.strftime('%Y-%m-%d')}, offline (no GPU; the profiles: H200, triton 3.6.0)",
            f"# kernel | schedule II x unit | replay, model costs | replay, measured op costs (arrive 0 / {ARRIVE}) | "
            "measured period per partition | explained | tensor-core factor to match"]
    for label, prof in CASES:
        kernel = G / Path(prof).parent / "kernels" / label
        g = json.loads((kernel / "gluon.json").read_text())
        src = (kernel / "kernel_gluon.py").read_text()
        sig = g["gluon"]["kernel"]["signature"]
        unit = float(g["time_unit_cycles"])
        p = json.loads((G / prof).read_text())
        measured = max(v["period_cycles"] for v in p["combined"]["partitions"].values())
        model = replay(src, sig, model_costs(g["graph"], unit, issue)).iteration()
        m0 = replay(src, sig, measured_costs(g["graph"], unit, p)).iteration()
        mc = measured_costs(g["graph"], unit, p, arrive=ARRIVE)
        m1 = replay(src, sig, mc).iteration()
        f = _tc_factor(src, sig, mc, measured)
        rows.append(f"{label} | {g['ii'] * unit:.0f} | {model:.0f} | {m0:.0f} / {m1:.0f} | {measured:.0f} ({prof}) | "
                    f"{m1 / measured:.0%} | {f if f is not None else '> 8'}")
    text = "\n".join(rows) + "\n"
    print(text, end="")
    if a.out:
        Path(a.out).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
