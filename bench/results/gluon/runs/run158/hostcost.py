"""Run 158: the host's microseconds a launch of a committed kernel costs, by path (the Triton kernel, the generated
launcher's ``launch`` and, where it has them, ``launch_long`` / ``launch_short``), and a cProfile of 200 ``launch``
calls: where the launcher's time goes.

    PYTHONPATH=. python bench/results/gluon/runs/run158/hostcost.py LABEL
"""
from __future__ import annotations

import cProfile
import io
import json
import pstats
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[5]
sys.path.insert(0, str(ROOT))

from bench.gluon_gpu import _module  # noqa: E402


def _host_us(fn, n: int = 200) -> float:
    import torch
    fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    us = (time.perf_counter() - t0) / n * 1e6
    torch.cuda.synchronize()
    return us


def main() -> int:
    label = sys.argv[1]
    d = ROOT / "bench/results/gluon" / label
    meta = json.loads((d / "variant.json").read_text())
    kmod = _module(ROOT / meta["kernel_file"], "k158")
    gmod = _module(d / "kernel_gluon.py", "g158")
    triton_fn = getattr(kmod, meta["jit"])
    inp = kmod.make_inputs(**kmod.PROBLEM, seed=13)
    out = {"triton": _host_us(lambda: kmod.launch(inp))}
    setattr(kmod, meta["jit"], gmod.kernel)
    out["launch"] = _host_us(lambda: kmod.launch(inp))
    original = gmod.launch
    for name in ("launch_long", "launch_short"):
        if hasattr(gmod, name):
            gmod.launch = getattr(gmod, name)
            out[name] = _host_us(lambda: kmod.launch(inp))
    gmod.launch = original
    print(label, " ".join(f"{k} {v:.1f} us" for k, v in out.items()), flush=True)
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(200):
        kmod.launch(inp)
    prof.disable()
    s = io.StringIO()
    pstats.Stats(prof, stream=s).sort_stats("tottime").print_stats(18)
    print(s.getvalue()[-5000:])
    setattr(kmod, meta["jit"], triton_fn)
    return 0


if __name__ == "__main__":
    sys.exit(main())
