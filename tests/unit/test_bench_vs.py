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


def test_square_sizes_that_are_not_numbers_are_refused():
    r = _run(str(G / "gemm"), "--square", "4k,8192")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "--square" in r.stderr and "'4k,8192'" in r.stderr


def test_square_sizes_are_refused_for_a_kernel_file_that_is_not_a_gemm(monkeypatch):
    """--square sets M = N = K: on an attention kernel file it would time a problem that is not its own."""
    import pytest

    sys.path.insert(0, str(ROOT))
    import bench.gluon_vs as vs

    with pytest.raises(vs.BadInput, match="expected --square for a GEMM"):
        vs.head_to_head([G / "fa3"], [4096], 1, square=(4096,))


def test_triton_default_stays_tritons_kernel_after_a_generated_kernel_ran():
    # each contender swaps its kernel into the kernel file's module; the Triton default of a later size was taken
    # after that swap, so it timed the generated kernel that ran last (runs 9-11: "triton_default" at 4k and 16k
    # equal to a twill kernel). Triton's own kernel is taken once, before the first size.
    import types

    sys.path.insert(0, str(ROOT))
    from bench.gluon_vs import _contenders

    kmod = types.SimpleNamespace(_attn_fwd="triton's _attn_fwd")
    kmod.launch = lambda inp: kmod._attn_fwd
    triton_fn = kmod._attn_fwd
    for _size in range(2):                      # as head_to_head does, once per size
        calls = _contenders([G / "fa3"], kmod, "_attn_fwd", triton_fn, {})
        assert calls["fa3"]() is not triton_fn  # the generated kernel ran, and stays swapped in
        assert calls["triton_default"]() == "triton's _attn_fwd"


def test_tritons_configurations_run_tritons_kernel_with_their_launch_options():
    # --configs: Triton's own kernel at validate's configurations, timed in the same rounds as twill's (run 214's
    # validate timed Triton's best minutes after twill's kernel)
    import types

    sys.path.insert(0, str(ROOT))
    from bench.gluon_vs import _contenders
    from twill.validate_gluon import CONFIGS

    kmod = types.SimpleNamespace(_attn_fwd="triton's _attn_fwd")
    kmod.launch = lambda inp, **cfg: (kmod._attn_fwd, cfg)
    calls = _contenders([G / "fa3"], kmod, "_attn_fwd", kmod._attn_fwd, {}, CONFIGS)
    calls["fa3"]()                                            # a generated kernel swapped in first
    assert calls["triton_num_stages4"]() == ("triton's _attn_fwd", {"num_stages": 4})
    assert [x for x in calls if x.startswith("triton_num")] == ["triton_num_stages2", "triton_num_stages3",
                                                                 "triton_num_stages4"]
