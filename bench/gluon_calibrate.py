"""Offline: fit the Gluon replay's costs from the committed per-partition profiles (codegen/gluon/calibration.py),
write the fitted file, and print each profile's measured period against the schedule, the replay with the model's
costs, and the calibration fitted without that profile (leave one run out) and without any profile of its kernel
(leave the kernel out: ``twill validate``'s held-out figure).

    python bench/gluon_calibrate.py [--out twill/machine/calibration/h200-gluon.json] [--table FILE] [--smem-rate B]

Each profile is read with the kernel it measured (``kernels/<label>/`` beside it). No GPU, no solver.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from codegen.gluon.calibration import Profiled, fit, leave_one_out  # noqa: E402

G = ROOT / "bench/results/gluon"
# label -> (profile directory, kernel) : the profiles whose kernels are kept beside them
PROFILES = [("fa3-turns-run7", "profile-run7", "fa3"), ("gemm-run7", "profile-run7", "gemm"),
            ("fa3-run11", "profile-run11", "fa3"), ("gemm-run11", "profile-run11", "gemm"),
            ("fa_bwd-run6", "profile-run6", "fa_bwd"),
            ("fa3-run12", "profile-run12", "fa3"), ("fa3-calibrated-run12", "profile-run12", "fa3-calibrated"),
            ("gemm-run12", "profile-run12", "gemm"), ("gemm-two-groups-run12", "profile-run12", "gemm-two-groups"),
            ("fa3-run23", "profile-run23", "fa3"), ("fa_causal-run23", "profile-run23", "fa_causal"),
            # region-sums profiles of the committed kernels (session 83): run 214 on the H200; runs 208 and 211 on an
            # H100, whose SM, clocks and tensor cores are the H200's (the FA forward's loop ran 2509.2 cycles an
            # iteration there, 2509.7 on the H200)
            ("fa3-run214", "profile-run214", "fa3"), ("gemm-run214", "profile-run214", "gemm"),
            ("fa_bwd-run214", "profile-run214", "fa_bwd"), ("fa_bwd-run208-h100", "profile-run208", "fa_bwd"),
            ("fa3-run211-h100", "profile-run211", "fa3")]


def profiled() -> list[Profiled]:
    out = []
    for label, d, k in PROFILES:
        p = Profiled.read(label, G / d / "kernels" / k, G / d / f"{k}.json")
        out.append(Profiled(p.label, p.source, p.gluon, p.profile,
                            tuple(str(Path(x).relative_to(ROOT)) for x in p.paths)))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=None, help="write the calibration fitted on every profile here (JSON)")
    ap.add_argument("--table", default=None, help="write the printed table here too")
    ap.add_argument("--smem-rate", type=float, default=None,
                    help="the replay's shared-memory port, bytes a cycle (default: the H200 machine file's smem_bytes; "
                         "0: not modelled)")
    a = ap.parse_args()
    for path in (a.out, a.table):
        if path and not Path(path).resolve().parent.is_dir():
            print(f"gluon_calibrate: expected a file in an existing directory, found {path}", file=sys.stderr)
            return 2
    t0 = time.time()
    ps = profiled()
    import os
    os.chdir(ROOT)                       # sources are hashed by their paths relative to the project
    if a.smem_rate is not None and not a.smem_rate >= 0:
        print(f"gluon_calibrate: expected --smem-rate of 0 or more bytes a cycle, found {a.smem_rate}", file=sys.stderr)
        return 2
    from twill.machine.model import load_machine
    h200 = load_machine("h200")
    if a.smem_rate is None:
        a.smem_rate = h200.rate("smem_bytes")
    issue = h200.written_cost("wgmma_issue") or 0.0     # a dot class no profile timed: the machine file's issue
    cal = fit(ps, a.smem_rate, issue)
    rows = [f"# bench/gluon_calibrate.py, {time.strftime('%Y-%m-%d')}, offline (profiles: H200 but those labelled "
            "-h100, triton 3.6.0)",
            "# profile | measured cycles/iteration | schedule (II x unit) | replay, model costs | calibrated, this run "
            "held out (error) | calibrated, every run of its kernel held out (error) | tensor factor in sample"]
    factors = {e["label"]: e["tensor_factor"] for e in cal.fitted_from}
    runs, kernels = leave_one_out(ps, a.smem_rate, issue), leave_one_out(ps, a.smem_rate, issue, whole_kernel=True)
    for r, k, p in zip(runs, kernels, ps):
        sched = float(p.gluon["ii"]) * p.unit
        held = [(f"{x['held_out']:.0f} ({x['error']:+.1%})" if x["held_out"] is not None
                 else "none (no other profile has its dot shapes)") for x in (r, k)]
        rows.append(f"{r['label']} | {r['measured']:.0f} | {sched:.0f} ({sched / r['measured'] - 1:+.1%}) | "
                    f"{r['model']:.0f} | {held[0]} | {held[1]} | {factors[r['label']] or 'not reached (> 4x)'}")
    rows.append(f"# fitted on all: tensor {cal.tensor}; issue {cal.issue}; node {cal.node}; shared-memory port "
                f"{a.smem_rate:g} B a cycle; a dot class no profile timed issues in {issue:g} cycles "
                f"({time.time() - t0:.1f} s)")
    text = "\n".join(rows) + "\n"
    print(text, end="")
    if a.table:
        Path(a.table).write_text(text)
    if a.out:
        Path(a.out).write_text(json.dumps(cal.to_dict(), indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
