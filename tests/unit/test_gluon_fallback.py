"""A generated kernel swapped in for the Triton kernel runs the launches it was generated for, and hands the others
(other constexprs, too few loop iterations) to ``kernel.fallback`` where one is set, counting them; without one it
refuses them in one line. No GPU: every case here is decided before the launcher touches a device."""
from __future__ import annotations

from pathlib import Path

import pytest

from codegen.gluon.generate import load_module

ROOT = Path(__file__).resolve().parents[2]
GLUON = ROOT / "bench/results/gluon"


class _Triton:
    """Stands for the Triton kernel: records ``kernel[grid](*args, **kwargs)``."""

    def __init__(self):
        self.calls = []

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.calls.append((grid, args, kwargs)) or "triton"


def _module(label, tmp_path):
    mod = load_module((GLUON / label / "kernel_gluon.py").read_text(), tmp_path)
    mod._sm_count, mod._device = (lambda: 132), (lambda: 0)     # no device here: what a launch key reads of one
    return mod


def test_other_constexprs_go_to_the_fallback_counted_and_are_refused_without_one(tmp_path):
    mod = _module("gemm", tmp_path)
    args = (None, None, None, 4096, 4096, 4096)
    with pytest.raises(ValueError, match="generated for BLOCK_M=128, launched with 64"):
        mod.kernel[(1,)](*args, BLOCK_M=64, BLOCK_N=256, BLOCK_K=64, GROUP_M=8)
    triton = _Triton()
    mod.kernel.fallback = triton
    got = mod.kernel[(4,)](*args, BLOCK_M=64, BLOCK_N=256, BLOCK_K=64, GROUP_M=8)
    assert got == "triton" and mod.kernel.fallbacks == 1
    assert triton.calls == [((4,), args, {"BLOCK_M": 64, "BLOCK_N": 256, "BLOCK_K": 64, "GROUP_M": 8})]
    assert mod.kernel.run(*args, grid=(2,), BLOCK_M=32, BLOCK_N=256, BLOCK_K=64, GROUP_M=8) == "triton"
    assert mod.kernel.fallbacks == 2


def test_too_few_iterations_go_to_the_fallback(tmp_path):
    # the MXFP4 upcast GEMM's pipeline needs 2 iterations of K a program: K = 64 gives one
    mod = _module("triton_kernels_mxfp4_upcast_gemm", tmp_path)
    names = mod.ARGUMENTS
    bound = {n: 1 for n in names} | {"K": 64} | mod.CONSTEXPRS
    args = tuple(bound[n] for n in names if n not in mod.CONSTEXPRS)
    consts = {n: v for n, v in mod.CONSTEXPRS.items() if n in names}
    with pytest.raises(ValueError, match="must run at least 2 iteration"):
        mod.kernel[(1,)](*args, **consts)
    mod.kernel.fallback = _Triton()
    assert mod.kernel[(1,)](*args, **consts) == "triton" and mod.kernel.fallbacks == 1


def test_a_launch_missing_arguments_is_not_handed_on(tmp_path):
    mod = _module("gemm", tmp_path)
    mod.kernel.fallback = _Triton()
    with pytest.raises(ValueError, match="missing kernel arguments"):
        mod.kernel[(1,)](None, None, None, 4096, 4096)
    assert mod.kernel.fallbacks == 0
