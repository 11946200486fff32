"""Without a GPU: each kernel file under ``tests/corpus`` run in Triton's interpreter against its own ``reference``,
so a harness whose kernel disagrees with its reference shows before a GPU run blames the generated kernel for it.

    python bench/corpus_interpret.py [GLOB ...] [--jobs 1] [--timeout 120] [--out results.json]

Each file runs in its own process (``TRITON_INTERPRET=1`` must be set before triton is imported; a kernel the
interpreter crawls through costs its timeout, not the run) at its ``SMALL`` problem (else ``PROBLEM``), seed 11,
on device "cpu": ``make_inputs(**SMALL, device="cpu", seed=11)``, ``launch`` with outputs poisoned with NaN, and
``reference``; each output's relative error (``profiling.check.rel_err``) against the file's ``VALIDATE_TOL``
(1e-2 unless it says). The interpreter is first made to compute what the GPU computes where Triton 3.6's does not
(``bench/interpreter_fixes.py``: bf16 arithmetic, fp8 rounding, libdevice, ``and`` of tensors, ...; each line says
the fixes a kernel used). Outcomes: ``pass``; ``FAIL`` (the file's own kernel disagrees with its reference, or
writes NaN: a harness defect); ``unsupported`` (the interpreter cannot run the kernel: inline asm, tl.dot_scaled,
a library not installed, ...); ``not on cpu`` (``make_inputs`` has no ``device``, or the file asks for CUDA or a
GPU driver); ``error`` (its make_inputs or reference raised on the CPU); ``no harness`` (no make_inputs / launch /
reference); ``timeout``. The latest run is kept in ``bench/results/corpus_interpret.txt``.
"""
from __future__ import annotations

import argparse
import fnmatch
import importlib.util
import inspect
import json
import os
import platform
import subprocess
import sys
import time
import traceback
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "corpus"
SEED = 11
OUTCOMES = ("pass", "FAIL", "unsupported", "not on cpu", "error", "no harness", "timeout")
_BEYOND = {"dot_scaled": "tl.dot_scaled", "inline_asm": "inline asm", "float8e4b15": "fp8e4b15"}   # no interpreter
_FIXES = ("bf16_ops", "fp8_casts", "libdevice_ops", "boolops", "loop_vars")   # bench/interpreter_fixes.py's counters
_CUDA_WORDS = ("cuda", "nvidia driver", "no nvidia", "gpu", "active drivers")


def _module(path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(f"twill_interp_{path.stem}", path)
    mod = importlib.util.module_from_spec(spec)     # type: ignore[arg-type]
    sys.modules[spec.name] = mod                    # type: ignore[union-attr]
    spec.loader.exec_module(mod)                    # type: ignore[union-attr]
    return mod


def _last_line(e: BaseException) -> str:
    """An exception in one line: its type and the last line of its message, or of its cause's where the
    interpreter wraps one (``InterpreterError`` around the op that failed)."""
    while e.__cause__ is not None and not str(e).strip():
        e = e.__cause__
    lines = [ln for ln in str(e).strip().splitlines() if ln.strip()]
    return f"{type(e).__name__}: {lines[-1].strip() if lines else ''}"[:300]


def _on_cpu(e: BaseException) -> bool:
    """Whether an exception says the file asked for CUDA (torch built without it, no driver)."""
    text = "".join(traceback.format_exception_only(type(e), e)).lower()
    return any(w in text for w in _CUDA_WORDS)


def one(path: Path, tile: dict[str, Any] | None = None) -> dict[str, Any]:
    """One kernel file's outcome in the interpreter (runs in its own process, ``TRITON_INTERPRET=1`` already set);
    ``tile`` is filled with its TWILL_SPEC's constexprs (``untimed_autotune`` reads them)."""
    import torch

    from profiling.check import poisoned_outputs, rel_err

    out: dict[str, Any] = {"file": _rel(path)}
    text = path.read_text(encoding="utf-8")
    if not all(f"def {f}(" in text for f in ("make_inputs", "launch", "reference")):   # a graph-only file
        return {**out, "outcome": "no harness", "why": "no make_inputs / launch / reference"}
    try:
        mod = _module(path)
    except Exception as e:   # noqa: BLE001 - a file the interpreter cannot even define (an import it lacks)
        return {**out, "outcome": "not on cpu" if _on_cpu(e) else "unsupported", "why": "import: " + _last_line(e)}
    if tile is not None:
        tile.update((getattr(mod, "TWILL_SPEC", None) or {}).get("constexprs", {}))
    size = dict(getattr(mod, "SMALL", None) or getattr(mod, "PROBLEM", None) or {})
    tol = float(getattr(mod, "VALIDATE_TOL", 1e-2))
    out.update(problem=size, tol=tol)
    if "device" not in inspect.signature(mod.make_inputs).parameters:
        return {**out, "outcome": "not on cpu", "why": "make_inputs has no device parameter"}
    stage = "make_inputs"
    try:
        inp = mod.make_inputs(**size, device="cpu", seed=SEED)
        stage = "reference"
        ref = mod.reference(inp)
        stage = "launch"
        with poisoned_outputs():
            got = mod.launch(inp)
    except Exception as e:   # noqa: BLE001 - every failure is an outcome, reported in one line
        why = f"{stage}: {_last_line(e)}"
        if _on_cpu(e):
            return {**out, "outcome": "not on cpu", "why": why}
        if stage == "launch":
            said = [w for k, w in _BEYOND.items() if k in text]
            return {**out, "outcome": "unsupported", "why": why + (f" (uses {', '.join(said)})" if said else "")}
        return {**out, "outcome": "error", "why": why}
    got = list(got) if isinstance(got, (tuple, list)) else [got]
    ref = list(ref) if isinstance(ref, (tuple, list)) else [ref]
    pairs = list(zip(got, ref))
    errs = [rel_err(g.to("cpu"), r.to("cpu")) for g, r in pairs]
    nan = any(bool(torch.isnan(g.float()).any().item()) for g, _ in pairs)
    ok = not nan and len(got) == len(ref) and all(e < tol for e in errs)   # a NaN error is not below tol: a FAIL
    why = "" if len(got) == len(ref) else f"{len(got)} outputs, reference has {len(ref)}"
    return {**out, "outcome": "pass" if ok else "FAIL", "rel_err": errs, "nan": nan, **({"why": why} if why else {})}


def _rel(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def _child(path: Path, timeout: float) -> dict[str, Any]:
    """``one(path)`` in a fresh process under the interpreter; a hang or a crash is an outcome."""
    t0 = time.time()
    env = dict(os.environ, TRITON_INTERPRET="1", PYTHONUNBUFFERED="1",
               PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p))
    try:
        r = subprocess.run([sys.executable, __file__, "--one", str(path)], capture_output=True, text=True,
                           timeout=timeout, env=env, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return {"file": _rel(path), "outcome": "timeout", "why": f"over {timeout:.0f} s", "seconds": timeout}
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith('{"file"')]
    if r.returncode != 0 or not lines:
        tail = [ln for ln in (r.stderr or r.stdout).strip().splitlines() if ln.strip()][-1:]
        res = {"file": _rel(path), "outcome": "unsupported", "why": f"exit {r.returncode}: " + " ".join(tail)}
    else:
        res = json.loads(lines[-1])
    res["seconds"] = round(time.time() - t0, 1)
    return res


def line(res: dict[str, Any]) -> str:
    """One file's outcome in a line: pass / FAIL with each output's relative error, else the reason."""
    name = Path(res["file"]).stem
    errs = res.get("rel_err")
    said = ", ".join(f"{e:.2e}" for e in errs) if errs else ""
    fixed = ", ".join(f"{k.replace('_', ' ')} {res[k]}" for k in _FIXES if res.get(k))
    extra = "; ".join(x for x in (said and f"rel err {said}", "NaN" if res.get("nan") else "", res.get("why", ""),
                                  fixed and f"interpreter fixes: {fixed}") if x)
    return f"{name:40s} {res['outcome']:11s} {extra} [{res.get('seconds', '?')} s]"


def summary(results: list[dict[str, Any]]) -> str:
    counts = {k: sum(r["outcome"] == k for r in results) for k in OUTCOMES}
    shown = ("pass", "FAIL", "unsupported", "timeout")            # always said, the others where any
    return f"{len(results)} files: " + ", ".join(f"{v} {k}" for k, v in counts.items() if v or k in shown)


def _files(globs: list[str]) -> list[Path]:
    """The corpus files the globs name (a path, or a pattern over ``tests/corpus``'s file names); all without one."""
    every = sorted(CORPUS.glob("*.py"))
    if not globs:
        return every
    picked: dict[Path, None] = {}
    for g in globs:
        if Path(g).is_file():
            picked[Path(g).resolve()] = None
        for f in every:
            if fnmatch.fnmatch(f.name, g) or fnmatch.fnmatch(f.name, g + ".py") or fnmatch.fnmatch(_rel(f), g):
                picked[f] = None
    return list(picked)


def _header(argv: list[str]) -> dict[str, Any]:
    import triton     # the parent imports it only for its version: the children run the kernels

    return {"date": time.strftime("%Y-%m-%d %H:%M:%S %Z"), "machine": f"{platform.node()} ({os.cpu_count()} CPUs,"
            f" no GPU)", "python": platform.python_version(), "triton": triton.__version__,
            "command": "python bench/corpus_interpret.py " + " ".join(argv)}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("globs", nargs="*", help="corpus files or name patterns (default: every file in tests/corpus)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=120, help="seconds per file")
    ap.add_argument("--out", default=None, help="write the outcomes and the summary as JSON")
    ap.add_argument("--one", default=None, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.one:
        os.environ["TRITON_INTERPRET"] = "1"      # before anything imports triton
        sys.path.insert(0, str(ROOT))
        from bench.interpreter_fixes import interpreter_fixes

        used, tile = interpreter_fixes()
        res = one(Path(a.one), tile)
        print(json.dumps({**res, **{k: v for k, v in used.items() if v}}), flush=True)
        return 0
    files = _files(a.globs)
    if not files:
        print(f"no corpus file matches {' '.join(a.globs)}", file=sys.stderr)
        return 2
    head = _header(argv)
    print(f"# {head['date']}, {head['machine']}, Python {head['python']}, triton {head['triton']}\n"
          f"# command: {head['command']}", flush=True)
    results: list[dict[str, Any]] = []
    with ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        futures = [pool.submit(_child, f, a.timeout) for f in files]
        for fut in as_completed(futures):
            results.append(fut.result())
            print(line(results[-1]), flush=True)
    results.sort(key=lambda r: r["file"])
    print(summary(results), flush=True)
    if a.out:
        Path(a.out).write_text(json.dumps({"env": head, "summary": summary(results), "files": results}, indent=1)
                               + "\n")
    return 1 if any(r["outcome"] == "FAIL" for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
