"""Run 159: as run 156 (``runs/run156/sweep.py``), on committed kernels whose one partition holds as many CTAs an SM
as the producer (the launcher runs it at up to 8 iterations a CTA): each path forced, at 2, 4 and 8 iterations,
Triton's default launch of the same problem beside.

    PYTHONPATH=. python bench/results/gluon/runs/run159/sweep.py LABEL [--out FILE]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[5]
sys.path.insert(0, str(ROOT))

from bench.gluon_gpu import _module, _timings  # noqa: E402
from profiling.check import output_checks  # noqa: E402

CASES = {   # label -> (the size that sets the trip count, its values: 2, 4, 8 iterations, the rest)
    "chunk_scan": ("L", [128, 256, 512], {"BH": 2048, "D": 64}),
    "mamba_bmm_chunk": ("dstate", [64, 128, 256], {"batch": 8, "seqlen": 4096, "ngroups": 8, "chunk_size": 256}),
    "tut03_autotune_matmul": ("K", [128, 256, 512], {"M": 4096, "N": 4096}),
    "int4_gemm": ("K", [128, 256, 512], {"M": 4096, "N": 4096}),
    "fla_chunk_bwd_dh": ("T", [128, 256, 512], {"B": 8}),
}
TRIP_NAMES = {"dstate": "K"}    # the kernel's argument a size is passed as
MODES = {"short": (10 ** 9, 0), "long": (0, 0)}     # SHORT_LIMIT, SHORT_LIMIT_FULL


def _first(out):
    import torch
    if isinstance(out, torch.Tensor):
        return out
    if isinstance(out, (tuple, list)):
        return next(o for o in out if isinstance(o, torch.Tensor))
    if isinstance(out, dict):
        return next(o for o in out.values() if isinstance(o, torch.Tensor))
    return None


def main() -> int:
    import torch

    ap = argparse.ArgumentParser()
    ap.add_argument("label")
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    d = ROOT / "bench/results/gluon" / a.label
    meta = json.loads((d / "variant.json").read_text())
    kmod = _module(ROOT / meta["kernel_file"], "k159")
    gmod = _module(d / "kernel_gluon.py", "g159")
    triton_fn = getattr(kmod, meta["jit"])
    tol = float(getattr(kmod, "VALIDATE_TOL", 1e-2))
    res = {"label": a.label, "checks": {}, "rows": []}
    for mode, (lim, full) in MODES.items():
        gmod.SHORT_LIMIT, gmod.SHORT_LIMIT_FULL = lim, full
        setattr(kmod, meta["jit"], gmod.kernel)
        checks = output_checks(kmod, tol)
        res["checks"][mode] = all(c["pass"] for c in checks)
        print(f"{a.label} {mode}: checks {'pass' if res['checks'][mode] else 'FAIL'}", flush=True)
    name, values, rest = CASES[a.label]
    for v in values:
        size = dict(rest, **{name: v})
        inp = kmod.make_inputs(**size, seed=13)
        trips = eval(gmod.SHORT_TRIPS, {}, dict(gmod.CONSTEXPRS, **{TRIP_NAMES.get(k, k): v for k, v in size.items()}))  # noqa: S307 - the module's own expression
        setattr(kmod, meta["jit"], triton_fn)
        ref = _first(kmod.launch(inp)).float().clone()
        row = {"problem": size, "trips": trips, "triton": _timings(lambda: kmod.launch(inp))}
        for mode, (lim, full) in MODES.items():
            gmod.SHORT_LIMIT, gmod.SHORT_LIMIT_FULL = lim, full
            setattr(kmod, meta["jit"], gmod.kernel)
            got = _first(kmod.launch(inp)).float()
            err = float((got - ref).abs().max())
            row[mode] = dict(_timings(lambda: kmod.launch(inp)), max_abs_vs_triton=err,
                             ref_max=float(ref.abs().max()))
        res["rows"].append(row)
        ms = {m: row[m]["graph_ms"] for m in ("triton", "short", "long")}
        print(f"{a.label} {size} trips {trips}: graph ms triton {ms['triton']:.4f} short {ms['short']:.4f} "
              f"long {ms['long']:.4f}  (short/long speed {ms['long'] / ms['short']:.2f}; max |diff| short "
              f"{row['short']['max_abs_vs_triton']:.3g} long {row['long']['max_abs_vs_triton']:.3g})", flush=True)
        del inp
        torch.cuda.empty_cache()
    if a.out:
        Path(a.out).write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
