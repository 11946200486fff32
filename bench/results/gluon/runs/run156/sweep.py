"""Run 156: the short-loop launcher's one-partition kernel against the warp-specialized one, forced each way, at
8-32 iterations a CTA, on the four committed kernels whose one partition holds 3 CTAs an SM against the producer's 2
(the launcher's 32-iteration rule applies to them), with Triton's default launch of the same problem beside.

    PYTHONPATH=. python bench/results/gluon/runs/run156/sweep.py LABEL [--out FILE]
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

CASES = {   # label -> (the size that sets the trip count, its values: 8, 12, 16, 24, 32 iterations, the rest)
    "vllm_fused_moe": ("K", [512, 768, 1024, 1536, 2048], {"M": 2048, "N": 2048}),
    "flaggems_mm_peeled": ("K", [576, 832, 1088, 1600, 2112], {"M": 4096, "N": 4096}),
    "triton_kernels_matmul_ogs": ("K", [512, 768, 1024, 1536, 2048], {"T": 4096, "E": 32, "N": 5760}),
    "fbgemm_jagged_jagged_bmm": ("max_seq_len", [256, 384, 512, 768, 1024], {"B": 512, "D": 256, "T": 256}),
}
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
    kmod = _module(ROOT / meta["kernel_file"], "k156")
    gmod = _module(d / "kernel_gluon.py", "g156")
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
        trips = eval(gmod.SHORT_TRIPS, {}, dict(gmod.CONSTEXPRS, **size))  # noqa: S307 - the module's own expression
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
        f = kmod.flops(**size)
        tf = {m: f / row[m]["graph_ms"] * 1e-9 for m in ("triton", "short", "long")}
        print(f"{a.label} {size} trips {trips}: graph TFLOP/s triton {tf['triton']:.1f} short {tf['short']:.1f} "
              f"long {tf['long']:.1f}  (short/long {row['long']['graph_ms'] / row['short']['graph_ms']:.2f}; "
              f"max |diff| short {row['short']['max_abs_vs_triton']:.3g} long {row['long']['max_abs_vs_triton']:.3g})",
              flush=True)
        del inp
        torch.cuda.empty_cache()
    if a.out:
        Path(a.out).write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
