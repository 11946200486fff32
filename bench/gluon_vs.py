"""On the GPU: generated Gluon kernels head to head with the library (cuDNN SDPA for attention forward,
cuBLAS for a GEMM) and Triton's default, in one process, interleaved round by round.

    python bench/gluon_vs.py DIR [DIR ...] [--rounds 7] [--sizes 1024,4096,16384] [--configs] [--square 4096,8192]
                               [--out vs.json]

All DIRs must come from one kernel file (``variant.json``). For each problem size, each round times every
contender once (do_bench median as launched, and from a CUDA graph), the contenders' order rotating from
round to round. The GPU's clock drifts by several percent within a minute (run 7: the same kernel 13-26 %
apart over a run), so a contender timed minutes after another is not compared with it: each round's ratio
to the library is taken between timings seconds apart, and the figure reported is the median over rounds
of those ratios, with the median TFLOP/s. ``--configs``: Triton's own kernel at each of the configurations
``twill validate`` tries (the kernel file's ``BENCH_CONFIGS``, else num_stages 2-4) as contenders too, so that its
best is timed in the same rounds (run 214's validate timed it minutes after twill's kernel: the GEMM's Triton
num_stages 4 717.4 against twill 678.3, where the H100 had them 716.9 / 730.5). Correctness is
``bench/gluon_gpu.py``'s job. ``--square``: a GEMM timed at M = N = K of each size (its PROBLEM otherwise). Imports
no solver.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.gluon_gpu import _module, _sizes  # noqa: E402
from twill.validate_gluon import CONFIGS, config_label  # noqa: E402


def _contenders(dirs: list[Path], kmod: Any, jit: str, triton_fn: Any, inp: dict[str, Any],
                configs: tuple[dict[str, Any], ...] = ()) -> dict[str, Callable[[], Any]]:
    """Label -> a call running it on ``inp``: each generated kernel, Triton's default (``triton_fn``: the kernel
    file's own JIT function, taken before any contender replaced it) and at each of ``configs``, the library."""
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    out: dict[str, Callable[[], Any]] = {}
    for d in dirs:
        g = _module(d / "kernel_gluon.py", f"twill_vs_{len(out)}").kernel

        def run(g: Any = g) -> Any:
            setattr(kmod, jit, g)
            return kmod.launch(inp)
        out[d.name if d.name not in out else f"{d.name}-{len(out)}"] = run

    def triton_default() -> Any:
        setattr(kmod, jit, triton_fn)
        return kmod.launch(inp)
    out["triton_default"] = triton_default
    for cfg in configs:
        def triton_at(cfg: dict[str, Any] = cfg) -> Any:
            setattr(kmod, jit, triton_fn)
            return kmod.launch(inp, **cfg)
        out[config_label(cfg)] = triton_at
    if "q" in inp and "do" not in inp:
        q, k, v = inp["q"], inp["k"], inp["v"]

        def cudnn() -> Any:
            with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
                return F.scaled_dot_product_attention(q, k, v, is_causal=bool(getattr(kmod, "CAUSAL", False)))
        out["sdpa_cudnn"] = cudnn
    if "a" in inp and "b" in inp:
        a, b = inp["a"], inp["b"]
        lib = getattr(kmod, "library", None)          # the kernel file's own product (B's layout is its own)
        out["cublas"] = (lambda: lib(inp)) if lib is not None else (lambda: torch.matmul(a, b.T))
    return out


def _library(labels: list[str]) -> str | None:
    return next((x for x in ("sdpa_cudnn", "cublas") if x in labels), None)


def head_to_head(dirs: list[Path], sizes: list[int], rounds: int, configs: bool = False,
                 square: tuple[int, ...] = ()) -> dict[str, Any]:
    import torch
    import triton

    meta = json.loads((dirs[0] / "variant.json").read_text())
    kmod = _module(ROOT / meta["kernel_file"], "twill_vs_kernel")
    out: dict[str, Any] = {"kernel_file": meta["kernel_file"], "rounds": rounds, "problems": []}
    # each contender swaps its kernel into the module before it runs: Triton's own is taken once, here (taken per
    # size, it was whichever generated kernel ran last in the previous size's rounds: runs 9-11, see NOTES.md)
    triton_fn = getattr(kmod, meta["jit"])
    cfgs = tuple(getattr(kmod, "BENCH_CONFIGS", CONFIGS)) if configs else ()
    problem = dict(getattr(kmod, "PROBLEM", {}) or {})
    if square and not {"M", "N", "K"} <= set(problem):
        raise BadInput(f"expected --square for a GEMM (PROBLEM with M, N and K), found {meta['kernel_file']} "
                       f"with PROBLEM {problem}")
    problems = [dict(problem, M=n, N=n, K=n) for n in square] if square else _sizes(kmod, sizes)
    for size in problems:
        inp = kmod.make_inputs(**size, seed=13)
        calls = _contenders(dirs, kmod, meta["jit"], triton_fn, inp, cfgs)
        labels = list(calls)
        for f in calls.values():      # compile and warm every contender before the first round
            f()
        torch.cuda.synchronize()
        ms: dict[str, list[float]] = {x: [] for x in labels}
        gms: dict[str, list[float]] = {x: [] for x in labels}
        for r in range(rounds):
            order = labels[r % len(labels):] + labels[:r % len(labels)]
            for x in order:
                ms[x].append(triton.testing.do_bench(calls[x], warmup=25, rep=100, return_mode="median"))
                gms[x].append(triton.testing.do_bench_cudagraph(calls[x], rep=100, return_mode="median"))
        fl = kmod.flops(**size)
        lib = _library(labels)
        rows = {}
        for x in labels:
            row = {"tflops": fl / statistics.median(ms[x]) * 1e-9,
                   "graph_tflops": fl / statistics.median(gms[x]) * 1e-9,
                   "tflops_rounds": [round(fl / t * 1e-9, 1) for t in ms[x]]}
            if lib is not None:
                row["vs_library"] = statistics.median(a / b for a, b in zip(ms[lib], ms[x]))
                row["graph_vs_library"] = statistics.median(a / b for a, b in zip(gms[lib], gms[x]))
            rows[x] = row
        out["problems"].append({"problem": size, "library": lib, "contenders": rows})
        del inp, calls
        torch.cuda.empty_cache()
    return out


def _bad_input(dirs: list[Path], sizes: str, rounds: int) -> str:
    """One line on what is wrong with the arguments, "" when nothing is."""
    files = set()
    for d in dirs:
        missing = [f for f in ("kernel_gluon.py", "variant.json") if not (d / f).is_file()]
        if missing:
            return f"expected a directory with kernel_gluon.py and variant.json, found {d} without {', '.join(missing)}"
        try:
            files.add(json.loads((d / "variant.json").read_text())["kernel_file"])
        except (ValueError, KeyError):
            return f"expected a variant.json with a kernel_file, found {d / 'variant.json'}"
    if len(files) > 1:
        return f"expected generated kernels of one kernel file, found {', '.join(sorted(files))}"
    if rounds < 1 or not _positive_ints(sizes):
        return f"expected --rounds >= 1 and --sizes as positive integers separated by commas, found {rounds}, {sizes!r}"
    return ""


class BadInput(Exception):
    """What is wrong with the arguments, found once the kernel file is loaded: one line, exit 2."""


def _positive_ints(text: str) -> bool:
    return all(x.strip().isdigit() and int(x) > 0 for x in text.split(","))


def _bad_square(square: str) -> str:
    if square and not _positive_ints(square):
        return f"expected --square as positive integers separated by commas, found {square!r}"
    return ""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--sizes", default="1024,4096,16384")
    ap.add_argument("--configs", action="store_true", help="Triton's kernel at validate's configurations too")
    ap.add_argument("--square", default="", help="a GEMM's sizes, M = N = K each, comma-separated")
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    dirs = [Path(d) for d in a.dirs]
    problem = _bad_input(dirs, a.sizes, a.rounds) or _bad_square(a.square)
    if problem:
        print(f"gluon_vs: {problem}", file=sys.stderr)
        return 2
    import torch
    import triton

    if not torch.cuda.is_available():
        print("gluon_vs: expected a CUDA GPU, found none (the generated kernels run on sm_90)", file=sys.stderr)
        return 2
    t0 = time.time()
    try:
        res = head_to_head(dirs, [int(s) for s in a.sizes.split(",")], a.rounds, a.configs,
                           tuple(int(x) for x in a.square.split(",")) if a.square else ())
    except BadInput as e:
        print(f"gluon_vs: {e}", file=sys.stderr)
        return 2
    res["env"] = {"date": time.strftime("%Y-%m-%d %H:%M"), "gpu": torch.cuda.get_device_name(),
                  "triton": triton.__version__, "torch": torch.__version__, "seconds": round(time.time() - t0, 1)}
    for p in res["problems"]:
        print(f"{res['kernel_file']} {p['problem']} ({res['rounds']} rounds, medians; x: per-round ratio to "
              f"{p['library']}, median):")
        for x, row in p["contenders"].items():
            vs = (f"  x{row['vs_library']:.3f} launched, x{row['graph_vs_library']:.3f} graph"
                  if "vs_library" in row else "")
            print(f"  {x:28s} {row['tflops']:7.1f} launched {row['graph_tflops']:7.1f} graph{vs}")
    if a.out:
        Path(a.out).write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
