"""bench/gluon_vs.py refuses what it cannot time in one line, before it imports torch."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
G = ROOT / "bench/results/gluon"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "bench/gluon_vs.py"), *args], capture_output=True, text=True,
                          cwd=ROOT)


def test_a_directory_without_a_generated_kernel_is_one_line(tmp_path):
    r = _run(str(tmp_path))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "without kernel_gluon.py, variant.json" in r.stderr


def test_kernels_of_two_kernel_files_are_not_compared():
    r = _run(str(G / "fa3"), str(G / "gemm"))
    assert r.returncode == 2 and "one kernel file, found kernels/fa3.py, kernels/gemm.py" in r.stderr


def test_sizes_that_are_not_numbers_are_refused():
    r = _run(str(G / "fa3"), "--sizes", "1k")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "'1k'" in r.stderr
