"""What the offline path does under the installed Triton: `twill optimize FILE --arch h100` on the example kernels
and a sample of tests/corpus, one line each (the schedule's result, whether the annotated TTGIR compiled, the Gluon
kernel or why none). CI pins Triton 3.6.0; `.ci/triton-next` runs this under a newer one (3.9.0) in a venv of its
own and writes `bench/results/triton-next/<version>.txt`. No GPU: nothing here launches a kernel.

    python bench/triton_next.py [--every N] [--timeout S] [FILE ...]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ("kernels/fa3.py", "kernels/fa3_subtiled.py", "kernels/fa_bwd.py", "kernels/gemm.py")


def sample(every: int) -> list[str]:
    """The example kernels and every ``every``-th file of tests/corpus in name order."""
    corpus = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "tests" / "corpus").glob("*.py"))
    return list(EXAMPLES) + corpus[::every]


def _line(out: str, prefix: str) -> str:
    found = next((ln for ln in out.splitlines() if ln.startswith(prefix)), "")
    return found[len(prefix):].strip()


def run_one(path: str, timeout: float) -> tuple[str, bool]:
    """One kernel's line, and whether its Gluon kernel was written (or refused in one line, as under 3.6)."""
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.time()
        try:
            p = subprocess.run([sys.executable, "-m", "twill", "optimize", path, "--arch", "h100", "-o", tmp,
                                "--quiet"], cwd=ROOT, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return f"{path}: timed out after {timeout:.0f} s", False
        secs = time.time() - t0
        out = p.stdout
        if p.returncode != 0:
            err = (p.stderr.strip().splitlines() or ["(no message)"])[-1]
            one = len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr
            return f"{path}: exit {p.returncode} ({'one line' if one else 'NOT one line'}): {err[:200]}", one
        result = _line(out, "result:")
        annotated = _line(out, "annotated TTGIR:")
        gluon = _line(out, "gluon kernel:")
        written = (Path(tmp) / "kernel_gluon.py").exists()
        internal = "internal error" in out
        gl = gluon.split(" (")[0] if written else f"none: {_line(out, 'no Gluon kernel written (kernel_gluon.py):')[:160]}"
        return (f"{path}: {result or '?'} | annotated: {annotated[:60] or '-'} | gluon: {gl} [{secs:.0f} s]",
                not internal)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--every", type=int, default=10, help="every N-th corpus file (default 10)")
    ap.add_argument("--timeout", type=float, default=300.0)
    a = ap.parse_args(argv)
    import triton
    files = a.files or sample(a.every)
    print(f"# python bench/triton_next.py {' '.join(argv if argv is not None else sys.argv[1:])}".rstrip()
          + f" ({time.strftime('%Y-%m-%d')}, triton {triton.__version__}, python {sys.version.split()[0]}, "
          f"{os.cpu_count()} CPUs, no GPU used): {len(files)} kernel files")
    bad = 0
    for f in files:
        line, ok = run_one(f, a.timeout)
        bad += not ok
        print(line, flush=True)
    print(f"# {len(files) - bad} of {len(files)} without an internal error, a traceback or a timeout")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
