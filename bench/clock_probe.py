"""On the GPU: each CTA's life in SM cycles and in nanoseconds, read inside a generated persistent Gluon kernel
(``%clock64`` and ``%globaltimer`` just before ``gl.warp_specialize`` starts the partitions and just after they
all return), so the clock the SMs ran at under load and the cycles an iteration took over the whole kernel (tiles'
prologues and epilogues, the last round included) come from the kernel itself, not from nvidia-smi.

    python bench/clock_probe.py DIR --iterations-per-tile T [--sizes 16384] [--seconds 2] [--calls 20]

The probed copy of ``DIR/kernel_gluon.py`` takes one more argument (a [programs, 5] int64 buffer: start and end
cycles, start and end nanoseconds, tiles run); its launcher is the generated one, its grid and loop unchanged.
Per CTA: GHz = cycles / ns; cycles an iteration = cycles / (tiles x T). ``--calls`` launches back to back after
``--seconds`` of warm-up, each with its own rows and CUDA events; printed: the medians over the calls of the CTAs'
clock, of the busiest CTAs' cycles an iteration, of the CTAs' span and of the events' time, and do_bench's time.
The probe itself: ``profiling.cta_clock`` (``twill validate`` runs it too). Imports no solver.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.gluon_gpu import _bench, _module, _sizes  # noqa: E402
from profiling.cta_clock import measure, probed  # noqa: E402
from twill.errors import InputError  # noqa: E402


def probe(directory: Path, sizes: list[int], per_tile: float, seconds: float, calls: int) -> dict[str, Any]:
    import torch

    meta = json.loads((directory / "variant.json").read_text())
    kmod = _module(ROOT / meta["kernel_file"], "twill_probe_kernel")
    source = (directory / "kernel_gluon.py").read_text()
    out: dict[str, Any] = {"label": meta["label"], "iterations_per_tile": per_tile, "problems": []}
    for size in _sizes(kmod, sizes):
        inp = kmod.make_inputs(**size, seed=13)

        def call(kernel: Any) -> Any:
            setattr(kmod, meta["jit"], kernel)
            return kmod.launch(inp)
        res = measure(source, call, per_tile, calls, seconds)
        res["do_bench_ms"] = _bench(lambda: kmod.launch(inp))
        out["problems"].append({"problem": size, **res})
        del inp
        torch.cuda.empty_cache()
    return out


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
    if a.iterations_per_tile <= 0 or a.calls < 1 or a.seconds < 0:
        print(f"clock_probe: expected --iterations-per-tile > 0, --calls >= 1, --seconds >= 0, found "
              f"{a.iterations_per_tile}, {a.calls}, {a.seconds}", file=sys.stderr)
        return 2
    try:
        probed((d / "kernel_gluon.py").read_text())
    except InputError as e:
        print(f"clock_probe: {e}", file=sys.stderr)
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
        print(f"{res['label']} {p['problem']}: {p['calls']} calls back to back, medians: SM clock {p['ghz']:.3f} GHz "
              f"({p['ghz_range'][0]:.3f}-{p['ghz_range'][1]:.3f} over the calls), {p['cycles_per_iteration']:.0f} cycles "
              f"an iteration (busiest CTAs), CTAs' span {p['span_ms']:.3f} ms, events {p['event_ms']:.3f} ms; "
              f"do_bench {p['do_bench_ms']:.3f} ms")
    if a.out:
        Path(a.out).write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
