"""On the GPU: the SM clock, power and throttle reasons while each contender of ``bench/gluon_vs.py`` runs, so that
a kernel's cycles (what Proton and the schedule count) and its time (what TFLOP/s counts) can be set side by side.

    python bench/gpu_clocks.py DIR [DIR ...] [--sizes 16384] [--seconds 3] [--cycles C,...] [--iterations I]

For each problem size and contender: the contender is launched back to back for ``--seconds`` while
``nvidia-smi`` samples the SM clock, power draw, power limit and active clock-event (throttle) reasons every 50 ms;
reported are the medians of the samples taken while it ran and its TFLOP/s over the same window. With ``--cycles``
(a kernel's measured or predicted cycles per iteration, one per DIR in order) and ``--iterations`` (the loop
iterations the busiest SM runs at the one size given), the window's time per iteration times the sampled clock is
set against those cycles: their ratio says how much of the kernel's time its steady loop explains. Imports no solver.

Under the power cap nvidia-smi's SM clock reads high: run 117 read the FA forward's SMs at 1.438 GHz from inside
the kernel (``bench/clock_probe.py``) while nvidia-smi said 1575 MHz. This script says which kernels run at the cap
and how their clocks compare; the clock itself comes from ``bench/clock_probe.py``.
"""
from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.gluon_gpu import _module, _sizes  # noqa: E402
from bench.gluon_vs import _bad_input, _contenders  # noqa: E402

QUERY = "clocks.sm,power.draw,power.limit,clocks_event_reasons.active,temperature.gpu"


class Sampler:
    """``nvidia-smi`` polled every 50 ms in a thread: (time, sm MHz, watts, limit W, reasons, temperature C) rows."""

    def __init__(self) -> None:
        self.rows: list[tuple[float, float, float, float, str, float]] = []
        query = QUERY
        if subprocess.run(["nvidia-smi", f"--query-gpu={query}", "--format=csv,noheader", "-i", "0"],
                          capture_output=True).returncode != 0:      # drivers before 530 name the field "throttle"
            query = query.replace("clocks_event_reasons", "clocks_throttle_reasons")
        self._p = subprocess.Popen(["nvidia-smi", f"--query-gpu={query}", "--format=csv,noheader,nounits",
                                    "-lms", "50", "-i", "0"], stdout=subprocess.PIPE, text=True)
        self._t = threading.Thread(target=self._read, daemon=True)
        self._t.start()

    def _read(self) -> None:
        for line in self._p.stdout:          # type: ignore[union-attr]
            f = [x.strip() for x in line.split(",")]
            try:
                self.rows.append((time.time(), float(f[0]), float(f[1]), float(f[2]), f[3], float(f[4])))
            except (ValueError, IndexError):
                continue

    def between(self, t0: float, t1: float) -> list[tuple[float, float, float, float, str, float]]:
        return [r for r in self.rows if t0 <= r[0] <= t1]

    def close(self) -> None:
        self._p.terminate()


def window(call: Callable[[], Any], seconds: float, sampler: Sampler) -> dict[str, Any]:
    """``call`` back to back for ``seconds`` (after a second's warm-up at the same load): its time per call and the
    samples taken meanwhile."""
    import torch

    end = time.time() + 1.0
    while time.time() < end:
        call()
    torch.cuda.synchronize()
    n, t0 = 0, time.time()
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    start.record()
    while time.time() - t0 < seconds:
        call()
        n += 1
    stop.record()
    torch.cuda.synchronize()
    t1 = time.time()
    rows = sampler.between(t0 + 0.1, t1)
    reasons = sorted({r[4] for r in rows})
    return {"calls": n, "ms_per_call": start.elapsed_time(stop) / n, "samples": len(rows),
            "sm_mhz": statistics.median(r[1] for r in rows) if rows else None,
            "sm_mhz_range": [min(r[1] for r in rows), max(r[1] for r in rows)] if rows else None,
            "watts": statistics.median(r[2] for r in rows) if rows else None,
            "limit_watts": rows[0][3] if rows else None, "reasons": reasons,
            "celsius": statistics.median(r[5] for r in rows) if rows else None}


def measure(dirs: list[Path], sizes: list[int], seconds: float, cycles: list[float], iterations: float) -> dict[str, Any]:
    import torch

    meta = json.loads((dirs[0] / "variant.json").read_text())
    kmod = _module(ROOT / meta["kernel_file"], "twill_clocks_kernel")
    triton_fn = getattr(kmod, meta["jit"])
    out: dict[str, Any] = {"kernel_file": meta["kernel_file"], "seconds": seconds, "problems": []}
    sampler = Sampler()
    try:
        for size in _sizes(kmod, sizes):
            inp = kmod.make_inputs(**size, seed=13)
            calls = _contenders(dirs, kmod, meta["jit"], triton_fn, inp)
            fl = kmod.flops(**size)
            rows = {}
            for i, (label, call) in enumerate(calls.items()):
                call()
                torch.cuda.synchronize()
                w = window(call, seconds, sampler)
                w["tflops"] = fl / w["ms_per_call"] * 1e-9
                if i < len(cycles) and iterations and w["sm_mhz"]:
                    w["cycles_per_iteration"] = cycles[i]
                    w["measured_cycles_per_iteration"] = w["ms_per_call"] * 1e3 / iterations * w["sm_mhz"]
                    w["cycles_explain"] = cycles[i] / w["measured_cycles_per_iteration"]
                rows[label] = w
            out["problems"].append({"problem": size, "contenders": rows})
            del inp, calls
            torch.cuda.empty_cache()
    finally:
        sampler.close()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--sizes", default="16384")
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--cycles", default="", help="cycles per iteration of each DIR, comma-separated")
    ap.add_argument("--iterations", type=float, default=0.0,
                    help="loop iterations the busiest SM runs at the (one) size: with --cycles, cycles per iteration")
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    dirs = [Path(d) for d in a.dirs]
    problem = _bad_input(dirs, a.sizes, 1)
    if not problem and a.seconds <= 0:
        problem = f"expected --seconds > 0, found {a.seconds}"
    if not problem and a.iterations and "," in a.sizes:
        problem = f"expected one size with --iterations, found {a.sizes!r}"
    if not problem and shutil.which("nvidia-smi") is None:
        problem = "expected nvidia-smi on the PATH (it samples the clocks), found none"
    if problem:
        print(f"gpu_clocks: {problem}", file=sys.stderr)
        return 2
    import torch
    import triton
    if not torch.cuda.is_available():
        print("gpu_clocks: expected a CUDA GPU, found none", file=sys.stderr)
        return 2
    cycles = [float(x) for x in a.cycles.split(",") if x.strip()]
    res = measure(dirs, [int(s) for s in a.sizes.split(",")], a.seconds, cycles, a.iterations)
    res["env"] = {"date": time.strftime("%Y-%m-%d %H:%M"), "gpu": torch.cuda.get_device_name(),
                  "triton": triton.__version__, "torch": torch.__version__}
    for p in res["problems"]:
        print(f"{res['kernel_file']} {p['problem']} ({a.seconds} s each; medians of nvidia-smi's samples):")
        for x, w in p["contenders"].items():
            extra = (f"  {w['measured_cycles_per_iteration']:.0f} cycles/iteration at that clock "
                     f"({w['cycles_per_iteration']:.0f} given: {w['cycles_explain']:.3f})"
                     if "cycles_explain" in w else "")
            print(f"  {x:24s} {w['tflops']:7.1f} TFLOP/s  SM {w['sm_mhz']} MHz {w['sm_mhz_range']}  "
                  f"{w['watts']} W of {w['limit_watts']}  {w['celsius']} C  reasons {w['reasons']}{extra}")
    if a.out:
        Path(a.out).write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
