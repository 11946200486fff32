"""On the GPU: the host's cost of one launch, twill's generated launcher against Triton's own kernel.

    python bench/launch_overhead.py DIR [DIR ...] [--size N] [--calls 200] [--profile 25] [--out overhead.json]

For each generated kernel DIR, on its kernel file's problem (FA sizes at N): microseconds of host time per call,
without synchronising (the kernel is longer than the launch, so the launch queue never fills), of
- ``triton``: the kernel file's ``launch`` running its own Triton kernel;
- ``twill``: the same ``launch`` with the generated kernel in its place (the generated ``launch``: argument
  binding, Gluon tensor descriptors, the persistent grid, then the Gluon JIT's dispatch);
- ``twill_dispatch``: the Gluon JIT's dispatch alone, with the arguments the generated launcher built;
and with ``--profile K`` the K most expensive functions of the ``twill`` calls by cumulative time. Imports no solver.
"""
from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.gluon_gpu import _module, _sizes  # noqa: E402


def host_us(fn: Callable[[], Any], calls: int) -> float:
    """Median over 5 batches of the host's microseconds per call of ``fn`` (no synchronisation inside a batch)."""
    import torch
    out = []
    for _ in range(5):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        out.append((time.perf_counter() - t0) / calls * 1e6)
        torch.cuda.synchronize()
    return sorted(out)[len(out) // 2]


def one(directory: Path, size: int, calls: int, top: int) -> dict[str, Any]:
    meta = json.loads((directory / "variant.json").read_text())
    kmod = _module(ROOT / meta["kernel_file"], f"twill_lo_{directory.name}")
    gmod = _module(directory / "kernel_gluon.py", f"twill_lo_g_{directory.name}")
    triton_fn = getattr(kmod, meta["jit"])
    inp = kmod.make_inputs(**_sizes(kmod, [size])[0], seed=1)
    res: dict[str, Any] = {"label": meta["label"], "problem": _sizes(kmod, [size])[0], "calls": calls}
    setattr(kmod, meta["jit"], triton_fn)
    kmod.launch(inp)
    res["triton"] = host_us(lambda: kmod.launch(inp), calls)
    setattr(kmod, meta["jit"], gmod.kernel)
    real = gmod.twill_kernel
    seen: list[tuple[Any, list[Any], dict[str, Any]]] = []

    class Capture:
        def __getitem__(self, grid: Any) -> Callable[..., Any]:
            def run(*args: Any, **kw: Any) -> Any:
                seen.append((grid, list(args), kw))
                return real[grid](*args, **kw)
            return run
    gmod.twill_kernel = Capture()
    kmod.launch(inp)
    gmod.twill_kernel = real
    res["twill"] = host_us(lambda: kmod.launch(inp), calls)
    grid, args, kw = seen[-1]
    res["twill_dispatch"] = host_us(lambda: real[grid](*args, **kw), calls)
    if top:
        prof = cProfile.Profile()
        prof.enable()
        for _ in range(calls):
            kmod.launch(inp)
        prof.disable()
        s = io.StringIO()
        pstats.Stats(prof, stream=s).sort_stats("cumulative").print_stats(top)
        res["profile"] = s.getvalue()
    return res


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--size", type=int, default=1024)
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--profile", type=int, default=0)
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    for d in a.dirs:
        missing = [f for f in ("variant.json", "kernel_gluon.py") if not (Path(d) / f).is_file()]
        if missing:
            print(f"launch_overhead: {d}: expected a generated kernel's directory, found no {', '.join(missing)}",
                  file=sys.stderr)
            return 2
    import torch
    import triton
    if not torch.cuda.is_available():
        print("launch_overhead: needs a CUDA GPU (found none)", file=sys.stderr)
        return 2
    out = {"gpu": torch.cuda.get_device_name(), "triton_version": triton.__version__, "torch_version": torch.__version__,
           "date": time.strftime("%Y-%m-%d"), "command": " ".join(sys.argv), "kernels": []}
    for d in a.dirs:
        r = one(Path(d), a.size, a.calls, a.profile)
        out["kernels"].append(r)
        print(f"{r['label']} {r['problem']}: host us per launch: triton {r['triton']:.1f}, twill {r['twill']:.1f}, "
              f"twill's dispatch alone {r['twill_dispatch']:.1f}")
        if r.get("profile"):
            print(r["profile"])
    if a.out:
        Path(a.out).write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
