"""On the GPU: generated Gluon kernels checked against their kernel file's reference and timed against Triton,
cuDNN / flash SDPA and cuBLAS, each variant in its own process (a kernel that deadlocks costs its timeout,
not the run).

    python bench/gluon_gpu.py DIR [DIR ...] [--out results.json] [--sizes 1024,4096,16384 | 0: checks only] [--timeout 240]
                              [--no-baselines]

Each DIR holds ``kernel_gluon.py`` and ``variant.json`` (``{"label", "kernel_file", "jit"}``), as
``bench/gluon_variants.py`` or ``twill optimize`` writes them. Imports no solver. ``TWILL_COPY_OFF=1``: the
kernels' cp.async copies taken through registers, as a launch too little aligned for them takes them;
``TWILL_TMA_OFF=1``: pointer tiles that are TMA boxes copied with cp.async, as a launch that does not allow TMA.
Each timed problem records the path its launch took (``path``: the launcher's flags, whether TMA boxes were built),
shown in the run's line, e.g. ``(registers, no TMA)`` where the launch's arguments fail the cp.async condition;
and, for a module of two kernels (the producer's and the one partition's), how many launches ran each (``ran``;
``[ran launch_short]`` in the line, ``[timed: ...]`` where the launch timed the two).
"""
from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from profiling.check import output_checks  # noqa: E402


def _module(path: Path, name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)        # type: ignore[union-attr]
    return mod


def _bench(fn: Any) -> float:
    import triton

    fn()
    return triton.testing.do_bench(fn, warmup=50, rep=200, return_mode="median")


def _timings(fn: Any) -> dict[str, float]:
    """Milliseconds per call as launched (do_bench, events, median), replayed from a CUDA graph (the
    device's time without the host's launch cost), and the host's microseconds per launch."""
    import torch
    import triton

    ms = _bench(fn)
    graph_ms = triton.testing.do_bench_cudagraph(fn, rep=200, return_mode="median")
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(20):
        fn()
    host_us = (time.perf_counter() - t0) / 20 * 1e6
    torch.cuda.synchronize()
    return {"ms": ms, "graph_ms": graph_ms, "host_us": host_us}


def _sizes(kmod: Any, sizes: list[int]) -> list[dict[str, int]]:
    """The problems to time: the FA sizes of the benchmark (B=4, H=32, D=128, N each), else PROBLEM. An image's
    N, H and W (a batch of images, its height and width: a conv, RoIAlign) are not a sequence length and heads."""
    problem = dict(getattr(kmod, "PROBLEM", {}) or {})
    if not sizes:                           # ``--sizes 0``: the checks only, nothing timed
        return []
    if "N" in problem and "H" in problem and "W" not in problem:
        return [dict(problem, N=n) for n in sizes]
    return [problem]


def device_sha256(source: str) -> str:
    """The hash of a generated kernel's device code (the source before its launcher): what a timing measures; a
    change to the launcher alone (run 142's fallback) keeps it."""
    from codegen.gluon.host import HOST_MARK

    return hashlib.sha256(source.split(HOST_MARK)[0].encode()).hexdigest()


def one(directory: Path, sizes: list[int]) -> dict[str, Any]:
    """Check and time one generated kernel (runs in its own process)."""
    import torch

    meta = json.loads((directory / "variant.json").read_text())
    kmod = _module(ROOT / meta["kernel_file"], "twill_bench_kernel")
    gmod = _module(directory / "kernel_gluon.py", "twill_bench_gluon")
    triton_fn = getattr(kmod, meta["jit"])
    if os.environ.get("TWILL_COPY_OFF") == "1" and hasattr(gmod, "_aligned"):
        gmod._aligned = lambda value: False     # every launch as one too little aligned for cp.async: its registers path
    if os.environ.get("TWILL_COPY_OFF") == "1" or os.environ.get("TWILL_TMA_OFF") == "1":
        gmod.TMA_BOXES = False                  # pointer tiles that are TMA boxes copied as the others are
    out: dict[str, Any] = {"label": meta["label"], "kernel_file": meta["kernel_file"], "checks": [], "speed": [],
                           "kernel_sha256": hashlib.sha256((directory / "kernel_gluon.py").read_bytes()).hexdigest(),
                           "device_sha256": device_sha256((directory / "kernel_gluon.py").read_text())}
    tol = float(getattr(kmod, "VALIDATE_TOL", 1e-2))
    setattr(kmod, meta["jit"], gmod.kernel)
    if hasattr(gmod.kernel, "fallbacks"):       # a launch the kernel was not generated for runs Triton's, counted
        gmod.kernel.fallback = triton_fn
    out["checks"] = output_checks(kmod, tol)
    out["pass"] = all(c["pass"] for c in out["checks"])
    if not out["pass"]:        # whose defect: the generated kernel's, or the kernel file's (its reference, its semantics)
        setattr(kmod, meta["jit"], triton_fn)
        out["triton_pass"] = all(c["pass"] for c in output_checks(kmod, tol))
        setattr(kmod, meta["jit"], gmod.kernel)
    out["fallback_launches_in_checks"] = getattr(gmod.kernel, "fallbacks", 0)
    fl = getattr(kmod, "flops", None)
    decided = recording(gmod)
    ran = counting(gmod)
    for size in _sizes(kmod, sizes):
        inp = kmod.make_inputs(**size, seed=13)
        setattr(kmod, meta["jit"], gmod.kernel)
        getattr(gmod, "_KEYED", {}).clear()          # this problem's launch decides its path again, recorded
        getattr(gmod, "_TIMED", {}).clear()          # ... and, where the module times its two kernels, times them
        decided.clear()
        ran.clear()
        before = getattr(gmod.kernel, "fallbacks", 0)
        t = _timings(lambda: kmod.launch(inp))
        t["fallback_launches"] = getattr(gmod.kernel, "fallbacks", 0) - before     # > 0: the figure is Triton's
        f = fl(**size) if callable(fl) else None
        timed = sorted({fn.__name__ for fn in getattr(gmod, "_TIMED", {}).values()})
        ran_here = dict(ran)                        # the figure's launches, before each kernel is timed alone
        each = _each_alone(gmod, lambda: kmod.launch(inp)) if timed else {}
        out["speed"].append({"problem": size, **t, "tflops": f / t["ms"] * 1e-9 if f else None,
                             "graph_tflops": f / t["graph_ms"] * 1e-9 if f else None,
                             "path": decided[0] if decided else {}, **({"timed": timed} if timed else {}),
                             **({"each_ms": each} if each else {}), **({"ran": ran_here} if ran_here else {})})
        del inp
        torch.cuda.empty_cache()
    setattr(kmod, meta["jit"], triton_fn)
    return out


def recording(gmod: Any) -> list[dict[str, Any]]:
    """The paths a generated module's launches take, as its launcher decides them per launch key (``_decide``: the
    flags' values, e.g. ``TWILL_COPY`` False where the copies go through registers, and whether TMA boxes were
    built), appended to the returned list as they are decided. Run 120 found vLLM's MoE on the register path by PC
    sampling: its launch's padded token count had failed the cp.async condition; the timed problems now say it."""
    seen: list[dict[str, Any]] = []
    decide = getattr(gmod, "_decide", None)
    if decide is None:
        return seen

    def recorded(bound: dict[str, Any]) -> Any:
        entry = decide(bound)
        seen.append({**dict(zip(getattr(gmod, "FLAGS", []), entry[0])), "boxes": entry[1] is not None})
        return entry
    gmod._decide = recorded
    return seen


def counting(gmod: Any) -> dict[str, int]:
    """Launches of each kernel of a module that holds two (``launch_long``: the warp-specialized one,
    ``launch_short``: the one partition), counted in the returned dict as they run: which kernel a figure describes
    (run 157: chunk_scan's figure had been its one partition's since run 142, which its record did not say)."""
    ran: dict[str, int] = {}
    if not (hasattr(gmod, "launch_long") and hasattr(gmod, "launch_short")):
        return ran
    for name in ("launch_long", "launch_short"):
        def counted(*args, _fn=getattr(gmod, name), _name=name, **kwargs):
            ran[_name] = ran.get(_name, 0) + 1
            return _fn(*args, **kwargs)
        setattr(gmod, name, counted)
    return ran


def _each_alone(gmod: Any, fn: Any) -> dict[str, float]:
    """A module that times its two kernels at launch (``launch_long``, ``launch_short``): each run alone at the same
    problem, milliseconds as launched and from a CUDA graph, so a figure says what the choice was worth."""
    if not (hasattr(gmod, "launch_long") and hasattr(gmod, "launch_short") and hasattr(gmod, "launch")):
        return {}
    chosen, out = gmod.launch, {}
    try:
        for name in ("launch_long", "launch_short"):
            gmod.launch = getattr(gmod, name)
            t = _timings(fn)
            out[name] = round(t["ms"], 5)
            out[name + "_graph"] = round(t["graph_ms"], 5)
    finally:
        gmod.launch = chosen
    return out


def ran_most(ran: dict[str, int]) -> str | None:
    """The kernel most of a figure's launches ran (a timed launch runs both a few times first), or None."""
    return max(sorted(ran), key=ran.get) if ran else None


def baselines(kernel_file: str, sizes: list[int]) -> dict[str, Any]:
    """Triton's kernel (its default and a few configs), and the libraries: SDPA (cuDNN, flash) for
    attention forward, cuBLAS for a GEMM."""
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    kmod = _module(ROOT / kernel_file, "twill_bench_base")
    fl = getattr(kmod, "flops", None)      # none (a memory-bound kernel): Triton's milliseconds, "_ms" keys
    out: dict[str, Any] = {"kernel_file": kernel_file, "rows": []}
    configs = [{}] + (list(getattr(kmod, "BENCH_CONFIGS", [{"num_stages": 2}, {"num_stages": 3}, {"num_stages": 4}]))
                      if os.environ.get("TWILL_BENCH_CONFIGS", "1") == "1" else [])
    for size in _sizes(kmod, sizes):
        inp = kmod.make_inputs(**size, seed=13)
        row: dict[str, Any] = {"problem": size}
        for cfg in configs:
            key = "triton_" + ("default" if not cfg else "_".join(f"{k}{v}" for k, v in cfg.items()))
            try:
                t = _timings(lambda: kmod.launch(inp, **cfg))
                if fl is None:
                    key += "_ms"
                    row[key], row[key + "_graph"] = t["ms"], t["graph_ms"]
                else:
                    row[key], row[key + "_graph"] = fl(**size) / t["ms"] * 1e-9, fl(**size) / t["graph_ms"] * 1e-9
            except Exception as e:   # noqa: BLE001 - a config Triton cannot run: recorded
                row[key] = f"failed: {type(e).__name__}"
        if ("q" in inp and "do" not in inp and fl is not None and inp["q"].dim() == 4     # an attention forward
                and inp["q"].dtype in (torch.float16, torch.bfloat16)):       # SDPA has no fp8 (fp8_attention)
            q, k, v = inp["q"], inp["k"], inp["v"]
            if (size.get("N"), size.get("H")) == tuple(q.shape[1:3]) and size.get("N") != size.get("H"):
                q, k, v = (x.transpose(1, 2) for x in (q, k, v))   # [B, N, H, D] (flash_attn_triton): SDPA's view
            causal = bool(getattr(kmod, "CAUSAL", False))     # a causal kernel against the causal libraries
            for name, be in (("sdpa_cudnn", SDPBackend.CUDNN_ATTENTION), ("sdpa_flash", SDPBackend.FLASH_ATTENTION)):
                try:          # a kernel SDPA has no backend for (FLA's Based: "No available kernel"): recorded
                    with sdpa_kernel(be):
                        t = _timings(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal))
                except Exception as e:   # noqa: BLE001 - Triton's rows above are kept
                    row[name] = f"failed: {type(e).__name__}"
                    continue
                row[name], row[name + "_graph"] = fl(**size) / t["ms"] * 1e-9, fl(**size) / t["graph_ms"] * 1e-9
        lib = getattr(kmod, "library", None)          # the kernel file's own product (B's layout is its own)
        if "a" in inp and "b" in inp and (lib is not None or fl is not None):       # a GEMM
            a, b = inp["a"], inp["b"]
            try:
                t = _timings((lambda: lib(inp)) if lib is not None else (lambda: torch.matmul(a, b.T)))
            except Exception as e:   # noqa: BLE001 - no library product for these operands: recorded, Triton's kept
                t, row["cublas"] = None, f"failed: {type(e).__name__}"
            if t is None:
                pass
            elif fl is None:                        # no flop count: the library's milliseconds
                row["cublas_ms"], row["cublas_ms_graph"] = t["ms"], t["graph_ms"]
            else:
                row["cublas"], row["cublas_graph"] = fl(**size) / t["ms"] * 1e-9, fl(**size) / t["graph_ms"] * 1e-9
        out["rows"].append(row)
        del inp
        torch.cuda.empty_cache()
    return out


def _child(args: list[str], timeout: float) -> dict[str, Any]:
    t0 = time.time()
    try:
        r = subprocess.run([sys.executable, __file__] + args, capture_output=True, text=True, timeout=timeout,
                           env=dict(os.environ, PYTHONUNBUFFERED="1"))
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f} s (a deadlock or a hang)", "args": args}
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("{")]
    if r.returncode != 0 or not lines:
        tail = (r.stderr or r.stdout).strip().splitlines()[-8:]
        return {"error": f"exit {r.returncode}: " + " | ".join(tail), "args": args}
    res = json.loads(lines[-1])
    res["seconds"] = round(time.time() - t0, 1)
    return res


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="*")
    ap.add_argument("--out", default=None)
    ap.add_argument("--sizes", default="1024,4096,16384")
    ap.add_argument("--timeout", type=float, default=240)
    ap.add_argument("--no-baselines", action="store_true", help="time the variants only, not Triton nor the libraries")
    ap.add_argument("--one", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--baseline", default=None, help=argparse.SUPPRESS)
    a = ap.parse_args()
    sizes = [int(x) for x in a.sizes.split(",") if int(x) > 0]
    if a.one:
        print(json.dumps(one(Path(a.one), sizes)))
        return 0
    if a.baseline:
        print(json.dumps(baselines(a.baseline, sizes)))
        return 0
    unusable = [d for d in a.dirs if not (Path(d) / "variant.json").is_file() or not (Path(d) / "kernel_gluon.py").is_file()]
    if unusable:
        print(f"gluon_gpu: {unusable[0]}: not a generated variant (expected a folder with variant.json and "
              f"kernel_gluon.py){f'; {len(unusable) - 1} more' if len(unusable) > 1 else ''}", file=sys.stderr)
        return 2
    if a.out and not Path(a.out).resolve().parent.is_dir():
        print(f"gluon_gpu: --out {a.out}: its folder does not exist (expected a file in an existing folder)",
              file=sys.stderr)
        return 2
    import torch
    import triton

    env = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__, "triton": triton.__version__,
           "date": time.strftime("%Y-%m-%d %H:%M:%S"), "command": " ".join(sys.argv)}
    results = {"env": env, "variants": [], "baselines": [], "complete": False}
    files = []
    for d in a.dirs:
        meta = json.loads((Path(d) / "variant.json").read_text())
        files.append(meta["kernel_file"])
        res = _child(["--one", d, "--sizes", a.sizes], a.timeout)
        res.setdefault("label", meta["label"])
        results["variants"].append(res)
        print(_line(res), flush=True)
        _save(a.out, results)
    for f in dict.fromkeys([] if a.no_baselines else files):
        res = _child(["--baseline", f, "--sizes", a.sizes], a.timeout)
        results["baselines"].append(res)
        for row in res.get("rows", []):
            print(f"baseline {f} {row['problem']}: " + ", ".join(f"{k} {v:.1f}" if isinstance(v, float) else f"{k} {v}"
                                                              for k, v in row.items() if k != "problem"), flush=True)
        if "error" in res:
            print(f"baseline {f}: {res['error']}", flush=True)
        _save(a.out, results)
    results["complete"] = True
    _save(a.out, results)
    return 0


def _save(out: str | None, results: dict[str, Any]) -> None:
    """The record so far, replaced whole after each variant and baseline (``complete`` false until the last): a run
    stopped by its time limit keeps what it timed (run 187 lost its record so)."""
    if out:
        tmp = Path(out).with_suffix(".part")
        tmp.write_text(json.dumps(results, indent=1) + "\n")
        tmp.replace(out)


def _line(res: dict[str, Any]) -> str:
    if "error" in res:
        return f"{res.get('label')}: ERROR {res['error']}"
    checks = res["checks"]
    worst = max(max(c["rel_err"]) for c in checks)
    speed = ", ".join((f"{s['problem'].get('N', '')}:{s['tflops']:.1f}/{s['graph_tflops']:.1f}g"
                       f"/{s['host_us']:.0f}us" if s["tflops"] else f"{s['ms']:.3f} ms") + _path(s.get("path"))
                      + (f" [timed: {', '.join(s['timed'])}]" if s.get("timed") else "")
                      + (f" [alone: long {s['each_ms']['launch_long']:.4f} / short {s['each_ms']['launch_short']:.4f} ms]"
                         if s.get("each_ms") else "")
                      + (f" [ran {ran_most(s['ran'])}]" if s.get("ran") and not s.get("timed") else "")
                      for s in res["speed"])
    fell = res.get("fallback_launches_in_checks") or 0
    timed = sum(1 for s in res["speed"] if s.get("fallback_launches"))
    said = (f"; {fell} check launches ran the Triton kernel (not generated for them)" if fell else "") + \
        (f"; {timed} timed problem(s) ran the Triton kernel: not twill's figures" if timed else "")
    if res.get("triton_pass") is not None:
        said += "; Triton's own kernel " + ("passes them" if res["triton_pass"] else "fails them too")
    return (f"{res['label']}: {'PASS' if res['pass'] else 'FAIL'} (max rel err {worst:.2e}"
            f"{', NaN' if any(c['nan'] for c in checks) else ''}{said}) TFLOP/s {speed} [{res.get('seconds')} s]")


def _path(path: dict[str, Any] | None) -> str:
    """A launch's path in a few words: the register copies and the boxes not built are the ones worth seeing."""
    if not path:
        return ""
    said = [("registers" if not v else "cp.async") if k == "TWILL_COPY" else ("no TMA" if not v else "TMA")
            for k, v in path.items() if k in ("TWILL_COPY", "TWILL_TMA")]
    return f" ({', '.join(said)})" if said else ""


if __name__ == "__main__":
    sys.exit(main())
