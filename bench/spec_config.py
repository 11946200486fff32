"""On the GPU: Triton's own kernel at the config twill compiles (the file's ``TWILL_SPEC``, else its first autotune
config) against the file's launch as written (its autotuner's choice), so that a gap between a generated kernel and
Triton's best splits into the config (which tiles, warps, stages) and the code (what twill writes for one config).

    python bench/spec_config.py KERNEL_FILE [KERNEL_FILE ...] [--out results.json]

A kernel not under ``@triton.autotune`` runs the config its launcher gives: it is reported as such and not timed.
The autotuner is restricted to the one config in place (its ``configs``, its cache and its pruning replaced), so the
launch, its grid and its hooks are the file's own. ``--out`` writes the rows under the date, the GPU, Triton's
version and the command. Exit 1 where a file could not be timed (its row says why), 2 without a GPU. Imports no
solver.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gluon_gpu import ROOT, _module, _timings  # noqa: E402


def _autotuner(mod: Any, name: str) -> Any:
    """The ``@triton.autotune`` object named ``name`` in ``mod``, under or over ``@triton.heuristics``, else None."""
    obj = getattr(mod, name, None)
    while obj is not None and not (hasattr(obj, "configs") and hasattr(obj, "cache")):
        obj = getattr(obj, "fn", None)
    return obj


def spec_config(tuner: Any, spec: dict[str, Any]) -> Any:
    """The autotune ``Config`` of ``spec``: its constexprs that the autotuner's configs set, its warps and stages;
    the first config where the file has no ``TWILL_SPEC``."""
    import triton

    if not spec:
        return tuner.configs[0]
    keys = {k for c in tuner.configs for k in c.kwargs}
    kwargs = {k: v for k, v in spec.get("constexprs", {}).items() if k in keys}
    return triton.Config(kwargs, num_warps=spec.get("num_warps", 4), num_stages=spec.get("num_stages", 3))


def _describe(cfg: Any) -> str:
    return ", ".join(f"{k}={v}" for k, v in cfg.kwargs.items()) + f", num_warps={cfg.num_warps}, " \
        f"num_stages={cfg.num_stages}"


def one(path: Path) -> dict[str, Any]:
    mod = _module(path, "twill_spec_config")
    spec = dict(getattr(mod, "TWILL_SPEC", {}) or {})
    name = spec.get("kernel") or getattr(mod, "KERNEL", None)
    tuner = _autotuner(mod, name) if name else None
    out: dict[str, Any] = {"kernel_file": str(path), "kernel": name}
    if tuner is None:
        out["note"] = ("no @triton.autotune found on the kernel TWILL_SPEC names: the launch runs the config its "
                       "launcher gives")
        return out
    problem = dict(getattr(mod, "PROBLEM", {}) or {})
    inp = mod.make_inputs(**problem, seed=13)
    fl = getattr(mod, "flops", None)

    def rate(t: dict[str, float]) -> dict[str, float]:
        if fl is None:
            return {"ms": t["ms"], "graph_ms": t["graph_ms"]}
        return {"tflops": fl(**problem) / t["ms"] * 1e-9, "tflops_graph": fl(**problem) / t["graph_ms"] * 1e-9}

    out["problem"] = problem
    out["autotuned"] = rate(_timings(lambda: mod.launch(inp)))
    chosen = list(tuner.cache.values())
    out["autotuner_chose"] = _describe(chosen[-1]) if chosen else None
    cfg = spec_config(tuner, spec)
    tuner.configs, tuner.cache = [cfg], {}
    tuner.early_config_prune, tuner.perf_model, tuner.configs_top_k = None, None, 1.0
    out["spec_config"] = _describe(cfg)
    out["at_spec_config"] = rate(_timings(lambda: mod.launch(inp)))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--out")
    a = ap.parse_args()
    try:
        import torch
        if not torch.cuda.is_available():
            print("spec_config: needs a GPU (torch.cuda.is_available() is False)", file=sys.stderr)
            return 2
    except ImportError:
        print("spec_config: needs torch with CUDA", file=sys.stderr)
        return 2
    results = []
    for f in a.files:
        try:
            r = one(ROOT / f if not Path(f).is_absolute() else Path(f))
        except Exception as e:   # noqa: BLE001 - one file's failure is its row, the others still run
            r = {"kernel_file": f, "error": f"{type(e).__name__}: {str(e)[:200]}"}
        print(json.dumps(r), flush=True)
        results.append(r)
    if a.out:
        import datetime

        import triton
        head = {"date": datetime.date.today().isoformat(), "gpu": torch.cuda.get_device_name(),
                "triton": triton.__version__, "command": " ".join(sys.argv)}
        Path(a.out).write_text(json.dumps({**head, "rows": results}, indent=1) + "\n")
    return 1 if any("error" in r for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
