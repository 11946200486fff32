"""Offline: every loop run on record (``twill validate --loops-only`` and ``--sums`` logs under bench/results/gluon/runs/,
whose first run times each partition's loop with no record inside it) set against
what twill predicts for the same kernel now: the schedule's period (I x its time unit) and the replay's
(``codegen.gluon.replay`` with the model's costs and the machine file's written constants, as ``twill validate``
runs it), and the replay with the costs calibrated from profiles (``twill.validate_gluon.calibrated``: held out where
the calibration saw the kernel). A kernel is compared only where the committed kernel is the one the run measured (its body, comments left
out, the same at the run's commit as now); the others are listed as regenerated since.

    python bench/gluon_loop_replay.py [--out bench/results/gluon/loop_replay.txt]

The error of a prediction is measured / predicted; the summary is the geometric mean of its distance from 1
(x1.00: exact) and of the ratio itself (the bias: above 1, the loops run slower than predicted). No GPU, no solver.
"""
from __future__ import annotations

import argparse
import json
import math
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from twill.gluon_route import latency_floor  # noqa: E402
from twill.graph.io import graph_from_dict  # noqa: E402
from twill.machine.model import load_machine  # noqa: E402
from twill.schedule.model import Schedule  # noqa: E402
from twill.validate_gluon import calibrated, replayed_iteration  # noqa: E402

G = ROOT / "bench/results/gluon"
# a loops-only run's line (``fa3 loops0:``) or a sums profile's (``fa3: plain 1.7866 ms; 34 regions summed``)
LABEL = re.compile(r"^([a-z_0-9-]+)(?: loops0?:|: plain [\d.]+ ms; \d+ regions summed)")
LOOP = re.compile(r"^loop run \(.*\): ([\d.]+) cycles an iteration")


def gpu_of(log: Path) -> str:
    """The GPU the run's log was made on: its run's ``gpu.txt`` (written since run 207), else the H200 (every earlier
    loop run's machine)."""
    f = log.parent / "gpu.txt"
    return "H100" if f.is_file() and "H100" in f.read_text() else "H200"


def loop_runs() -> list[tuple[Path, str, float]]:
    """(log, variant label, measured cycles an iteration) for every loop run the committed logs hold."""
    out = []
    for log in sorted(G.glob("runs/run*/out/*.log")):
        label = None
        for line in log.read_text(errors="replace").splitlines():
            if (a := LABEL.match(line)):
                label = a.group(1)
            elif (b := LOOP.match(line)) and label:
                out.append((log, label, float(b.group(1))))
    return out


def _body(text: str) -> str:
    """The kernel's device code as the GPU ran it: past the module's docstring (its decisions' wording changes with
    the generator's) and before the host side (the launcher's checks), comments left out."""
    start = text.find('"""', text.find('"""') + 3) + 3 if text.startswith('"""') else 0
    end = text.find("# -- host side")
    device = text[start:end if end >= 0 else len(text)]
    return "\n".join(ln.split("#")[0].rstrip() for ln in device.splitlines())


def variant_dir(log: Path, label: str) -> Path:
    """The run's own copy (runs/runNNN/<label>) where it brought one, else the committed variant."""
    own = log.parent.parent / label
    return own if (own / "gluon.json").is_file() else G / label


def measured_kernel(log: Path, kernel: Path) -> bool:
    """Whether ``kernel`` (now) has the body it had at the commit that added ``log``."""
    rel = lambda p: str(p.relative_to(ROOT))     # noqa: E731
    added = subprocess.run(["git", "log", "--diff-filter=A", "--format=%H", "-1", "--", rel(log)], cwd=ROOT,
                           capture_output=True, text=True).stdout.strip()
    if not added:
        return True                               # not committed yet: the run of this working tree
    then = subprocess.run(["git", "show", f"{added}:{rel(kernel)}"], cwd=ROOT, capture_output=True, text=True)
    return then.returncode == 0 and _body(then.stdout) == _body(kernel.read_text())


def predictions(d: Path) -> tuple[float, float, float | None, float | None]:
    """The schedule's period, the route's iteration (the schedule's period or its latency floor, where the kernel's
    own warps issue its loads: ``gluon_route.latency_floor``), the replay's and the calibrated replay's, in cycles an
    iteration."""
    m = load_machine("h200")
    gj = json.loads((d / "gluon.json").read_text())
    src = (d / "kernel_gluon.py").read_text()
    cal = calibrated(src, gj, m)
    period = float(gj["ii"]) * float(gj["time_unit_cycles"])
    floor = latency_floor(graph_from_dict(gj["graph"]), Schedule.from_dict(gj), own="def producer_" not in src)
    return period, max(period, floor), replayed_iteration(src, gj, m), cal["cycles"] if cal else None


def _summary(ratios: list[float]) -> str:
    if not ratios:
        return "none"
    err = math.exp(sum(abs(math.log(r)) for r in ratios) / len(ratios))
    bias = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    within = sum(abs(r - 1) <= 0.1 for r in ratios)
    return f"error x{err:.2f}, bias x{bias:.2f}, {within} of {len(ratios)} within 10 %"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    rows = [f"# python bench/gluon_loop_replay.py  ({time.strftime('%Y-%m-%d')}, offline: no GPU; the loop runs: "
            "H200 unless the line says H100, triton 3.6.0, torch 2.11; predictions with the H200's machine file)",
            "# run | variant | measured cycles/iteration | schedule (I x unit): predicted, measured/predicted | "
            "route (the schedule or its latency floor): predicted, measured/predicted | "
            "replay: predicted, measured/predicted | calibrated replay: predicted, measured/predicted"]
    sched, route, rep, cals, stale = [], [], [], [], []
    for log, label, meas in loop_runs():
        d = variant_dir(log, label)
        run = log.parent.parent.name
        if not (d / "gluon.json").is_file() or not measured_kernel(log, d / "kernel_gluon.py"):
            stale.append(f"{run} {label}")
            continue
        s, f, r, c = predictions(d)
        sched.append(meas / s)
        route.append(meas / f)
        rep += [meas / r] if r else []
        cals += [meas / c] if c else []
        gpu = " (H100)" if gpu_of(log) == "H100" else ""
        rows.append(f"{run}{gpu} | {label} | {meas:.0f} | {s:.0f}, x{meas / s:.2f} | {f:.0f}, x{meas / f:.2f} | "
                    + " | ".join(f"{x:.0f}, x{meas / x:.2f}" if x else "not replayed" for x in (r, c)))
    rows += [f"# schedule: {_summary(sched)}", f"# route (latency floor): {_summary(route)}",
             f"# replay: {_summary(rep)}", f"# calibrated replay: {_summary(cals)}",
             f"# regenerated since their run (not compared): {', '.join(stale) or 'none'}"]
    text = "\n".join(rows) + "\n"
    print(text, end="")
    if a.out:
        try:
            Path(a.out).write_text(text)
        except OSError as e:
            print(f"gluon_loop_replay: cannot write {a.out} ({e.strerror})", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
