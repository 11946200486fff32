"""On the GPU: each CTA's life in SM cycles and in nanoseconds, read inside a generated persistent Gluon kernel
(``%clock64`` and ``%globaltimer`` just before ``gl.warp_specialize`` starts the partitions and just after they
all return), so the clock the SMs ran at under load and the cycles an iteration took over the whole kernel (tiles'
prologues and epilogues, the last round included) come from the kernel itself, not from nvidia-smi.

    python bench/clock_probe.py DIR --iterations-per-tile T [--sizes 16384] [--seconds 2] [--out probe.json]

The probed copy of ``DIR/kernel_gluon.py`` takes one more argument (a [programs, 5] int64 buffer: start and end
cycles, start and end nanoseconds, tiles run); its launcher is the generated one, its grid and loop unchanged.
Per CTA: GHz = cycles / ns; cycles an iteration = cycles / (tiles x T). ``--calls`` launches back to back after
``--seconds`` of warm-up, each with its own rows and CUDA events; printed: the medians over the calls of the CTAs'
clock, of the busiest CTAs' cycles an iteration, of the CTAs' span and of the events' time, and do_bench's time. Imports no solver.
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.gluon_gpu import _bench, _module, _sizes  # noqa: E402

READ = 'gl.inline_asm_elementwise("mov.u64 $0, %{reg};", "=l", [], dtype=gl.int64, is_pure=False, pack=1)'


def probed(source: str) -> str:
    """``source`` with the probe: a first parameter ``twill_probe`` of ``twill_kernel``, the four reads around its
    ``gl.warp_specialize`` call and one row stored per program."""
    m = re.search(r"^def twill_kernel\((.*?)\):\n", source, re.M)
    if not m or "twill_g0" not in m.group(1):
        raise ValueError("expected a persistent generated kernel (twill_kernel with twill_g0..g2 parameters)")
    start = source.index("    gl.warp_specialize([", m.end())
    close = re.compile(r"^    \], .*\)$", re.M).search(source, start)     # the call's last line: "    ], [4, 1], [240, 24])"
    end = close.end()
    before = (f"    twill_t0 = {READ.format(reg='globaltimer')}\n"
              f"    twill_c0 = {READ.format(reg='clock64')}\n")
    after = (f"\n    twill_c1 = {READ.format(reg='clock64')}\n"
             f"    twill_t1 = {READ.format(reg='globaltimer')}\n"
             "    twill_pid = gl.program_id(0)\n"
             "    twill_np = gl.num_programs(0)\n"
             "    twill_row = twill_probe + twill_pid * 5\n"
             "    gl.store(twill_row, twill_c0)\n"
             "    gl.store(twill_row + 1, twill_c1)\n"
             "    gl.store(twill_row + 2, twill_t0)\n"
             "    gl.store(twill_row + 3, twill_t1)\n"
             "    gl.store(twill_row + 4, (twill_g0 * twill_g1 * twill_g2 - twill_pid + twill_np - 1) // twill_np)\n")
    out = source[:end] + after + source[end:]
    out = out[:start] + before + out[start:]
    return out.replace(f"def twill_kernel({m.group(1)}):", f"def twill_kernel(twill_probe, {m.group(1)}):", 1)


def probe(directory: Path, sizes: list[int], per_tile: float, seconds: float, calls: int) -> dict[str, Any]:
    import torch

    meta = json.loads((directory / "variant.json").read_text())
    kmod = _module(ROOT / meta["kernel_file"], "twill_probe_kernel")
    tmp = Path(tempfile.mkdtemp(prefix="twill-probe-"))
    (tmp / "kernel_gluon.py").write_text(probed((directory / "kernel_gluon.py").read_text()))
    gmod = _module(tmp / "kernel_gluon.py", "twill_probe_gluon")
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    hist = torch.zeros((calls + 1, 4 * sms, 5), dtype=torch.int64, device="cuda")
    slot = [0]
    run = gmod._run
    gmod._run = lambda entry, g, runtime: run(entry, g, [hist[slot[0]]] + list(runtime))
    setattr(kmod, meta["jit"], gmod.kernel)
    out: dict[str, Any] = {"label": meta["label"], "iterations_per_tile": per_tile, "problems": []}
    for size in _sizes(kmod, sizes):
        inp = kmod.make_inputs(**size, seed=13)
        call = lambda: kmod.launch(inp)      # noqa: E731
        slot[0] = calls                      # the warm-up's rows go to the spare slot
        end = time.time() + seconds          # the clock the power cap settles at, as in a long run
        while time.time() < end:
            call()
        hist.zero_()
        events = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(calls)]
        for i, (e0, e1) in enumerate(events):     # back to back, as the warm-up
            slot[0] = i
            e0.record()
            call()
            e1.record()
        torch.cuda.synchronize()
        per_call = [_call_row(rows, e0.elapsed_time(e1), per_tile) for rows, (e0, e1) in zip(hist.tolist(), events)]
        per_call = [r for r in per_call if r is not None]
        ms = _bench(call)
        med = {k: statistics.median(r[k] for r in per_call) for k in per_call[0]}
        out["problems"].append({"problem": size, "calls": len(per_call), "medians": med,
                                "ghz_range": [min(r["ghz"] for r in per_call), max(r["ghz"] for r in per_call)],
                                "do_bench_ms": ms, "per_call": per_call})
        del inp
        torch.cuda.empty_cache()
    return out


def _call_row(rows: list[list[int]], event_ms: float, per_tile: float) -> dict[str, float] | None:
    """One call's medians over its CTAs: clock, cycles an iteration (busiest CTAs), the CTAs' span and the events'."""
    rows = [r for r in rows if r[4] > 0 and r[3] > r[2]]
    if not rows:
        return None
    most = max(r[4] for r in rows)
    return {"ghz": statistics.median((r[1] - r[0]) / (r[3] - r[2]) for r in rows),
            "cycles_per_iteration": statistics.median((r[1] - r[0]) / (r[4] * per_tile) for r in rows if r[4] == most),
            "span_ms": (max(r[3] for r in rows) - min(r[2] for r in rows)) / 1e6, "event_ms": event_ms}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--iterations-per-tile", type=float, required=True)
    ap.add_argument("--sizes", default="16384")
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--calls", type=int, default=20, help="calls recorded back to back after the warm-up")
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    d = Path(a.dir)
    if not (d / "kernel_gluon.py").is_file() or not (d / "variant.json").is_file():
        print(f"clock_probe: expected a directory with kernel_gluon.py and variant.json, found {d}", file=sys.stderr)
        return 2
    import torch
    import triton
    if not torch.cuda.is_available():
        print("clock_probe: expected a CUDA GPU, found none", file=sys.stderr)
        return 2
    res = probe(d, [int(s) for s in a.sizes.split(",")], a.iterations_per_tile, a.seconds, a.calls)
    res["env"] = {"date": time.strftime("%Y-%m-%d %H:%M"), "gpu": torch.cuda.get_device_name(),
                  "triton": triton.__version__, "torch": torch.__version__}
    for p in res["problems"]:
        m = p["medians"]
        print(f"{res['label']} {p['problem']}: {p['calls']} calls back to back, medians: SM clock {m['ghz']:.3f} GHz "
              f"({p['ghz_range'][0]:.3f}-{p['ghz_range'][1]:.3f} over the calls), {m['cycles_per_iteration']:.0f} cycles "
              f"an iteration (busiest CTAs), CTAs' span {m['span_ms']:.3f} ms, events {m['event_ms']:.3f} ms; "
              f"do_bench {p['do_bench_ms']:.3f} ms")
    if a.out:
        Path(a.out).write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
