"""Host time per launch of generated Gluon kernels, split into the launcher's own work and the Gluon JIT's launch,
beside Triton's launch of the kernel file's own JIT function (on the GPU machine; imports no solver).

    python bench/launch_overhead.py DIR [DIR ...] [--profile]

Each DIR holds ``kernel_gluon.py`` and ``variant.json`` (as ``bench/gluon_gpu.py`` reads them); the problem is the
kernel file's SMALL (its PROBLEM where it has none), so that the device finishes each launch before the next is issued
and the host's time is what is measured. Prints one line per kernel: microseconds per call (median of 5 rounds of 200)
of Triton's launch, the generated launcher's, and the generated launcher's with ``FAST_LAUNCH = False`` (every launch
through the Gluon JIT's binder).
``--profile``: after each line, where the generated kernel's launch and Triton's spend their host time (cProfile,
2000 calls each, the 20 functions of most own time).
"""
from __future__ import annotations

import cProfile
import io
import json
import pstats
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.gluon_gpu import _module  # noqa: E402


def _us(fn, n: int = 200) -> float:
    import torch
    fn()
    torch.cuda.synchronize()
    rounds = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        rounds.append((time.perf_counter() - t0) / n * 1e6)
        torch.cuda.synchronize()
    return statistics.median(rounds)


def _profile(label: str, fn) -> None:
    fn()
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(2000):
        fn()
    prof.disable()
    text = io.StringIO()
    pstats.Stats(prof, stream=text).sort_stats("tottime").print_stats(20)
    print(f"--- {label}: cProfile of 2000 launches\n{text.getvalue()}", flush=True)


def one(d: Path, profile: bool = False) -> dict:
    meta = json.loads((d / "variant.json").read_text())
    kmod = _module(ROOT / meta["kernel_file"], "lo_kernel")
    gmod = _module(d / "kernel_gluon.py", "lo_gluon")
    triton_fn = getattr(kmod, meta["jit"])
    size = getattr(kmod, "SMALL", None) or kmod.PROBLEM
    inp = kmod.make_inputs(**size, seed=1)
    out = {"label": meta["label"], "problem": size}
    out["triton_us"] = _us(lambda: kmod.launch(inp))
    setattr(kmod, meta["jit"], gmod.kernel)
    out["gluon_us"] = _us(lambda: kmod.launch(inp))
    if profile:
        _profile(f"{meta['label']} generated", lambda: kmod.launch(inp))
    gmod.FAST_LAUNCH = False            # every launch through the Gluon JIT (its binder), as before run 33
    out["gluon_jit_us"] = _us(lambda: kmod.launch(inp))
    gmod.FAST_LAUNCH = True
    setattr(kmod, meta["jit"], triton_fn)
    if profile:
        _profile(f"{meta['label']} Triton", lambda: kmod.launch(inp))
    return out


if __name__ == "__main__":
    profile = "--profile" in sys.argv[1:]
    dirs = [Path(a) for a in sys.argv[1:] if a != "--profile"]
    bad = [d for d in dirs if not (d / "kernel_gluon.py").is_file() or not (d / "variant.json").is_file()]
    if not dirs or bad:
        sys.exit(f"launch_overhead: expected directories holding kernel_gluon.py and variant.json, found "
                 f"{', '.join(map(str, bad)) or 'none'}")
    import torch
    import triton
    print(json.dumps({"env": {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
                              "triton": triton.__version__, "date": time.strftime("%Y-%m-%d %H:%M:%S")}}), flush=True)
    for d in dirs:
        print(json.dumps(one(d, profile)), flush=True)
