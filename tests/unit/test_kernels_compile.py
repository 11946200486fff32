"""The example kernels in kernels/ compile offline for sm_90 and sm_100 from their TWILL_SPEC, without torch."""
from __future__ import annotations

import functools
import importlib.util
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

triton = pytest.importorskip("triton")
from triton.backends.compiler import GPUTarget  # noqa: E402
from triton.compiler import ASTSource  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
KERNELS = ("fa3", "fa3_subtiled", "fa_bwd", "gemm")
# Compute capability -> the TWILL_SPEC "arch" key whose overrides apply.
ARCHS = {90: "h100", 100: "b200"}
# Largest dynamic shared memory one CTA may use on H100, H200 and B200 (227 KiB); more fails at launch.
MAX_SHARED = 232448

# Tile-level ops of each kernel's TTIR (before layouts and pipelining), counted over the whole kernel.
EXPECTED_TTIR = {
    "fa3": {"tt.dot": 2, "math.exp2": 2, "tt.descriptor_load": 3, "scf.for": 1},
    "fa3_subtiled": {"tt.dot": 4, "math.exp2": 4, "tt.descriptor_load": 4, "scf.for": 1},
    "fa_bwd": {"tt.dot": 5, "math.exp2": 1, "tt.descriptor_load": 4, "tt.atomic_rmw": 1, "scf.for": 1},
    "gemm": {"tt.dot": 1, "math.exp2": 0, "tt.descriptor_load": 2, "scf.for": 1},
}
# What the tensor-core dots must become: (TTGIR op, PTX instruction), per compute capability.
EXPECTED_MMA = {90: ("ttng.warp_group_dot", "wgmma.mma_async"), 100: ("ttng.tc_gen5_mma", "tcgen05.mma")}


def load_kernel_file(name: str) -> ModuleType:
    """Import kernels/<name>.py by path, as twill loads a user's kernel file."""
    spec = importlib.util.spec_from_file_location(f"_twill_test_kernel_{name}", ROOT / "kernels" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def resolve_spec(module: ModuleType, arch: str) -> dict[str, Any]:
    """TWILL_SPEC with the arch's overrides applied (top-level keys replaced)."""
    spec = dict(module.TWILL_SPEC)
    spec.update(spec.get("arch", {}).get(arch, {}))
    return spec


@functools.lru_cache(maxsize=None)
def compiled(name: str, capability: int) -> tuple[dict[str, Any], Any]:
    """Compile one kernel once per test session; return (resolved spec, CompiledKernel)."""
    module = load_kernel_file(name)
    spec = resolve_spec(module, ARCHS[capability])
    fn = getattr(module, spec["kernel"])
    names = list(spec["signature"])
    attrs = {(names.index(arg),): [["tt.divisibility", 16]] for arg in spec["divisibility"]}
    source = ASTSource(fn, spec["signature"], spec["constexprs"], attrs)
    kernel = triton.compile(source, target=GPUTarget("cuda", capability, 32),
                            options={"num_warps": spec["num_warps"], "num_stages": spec["num_stages"]})
    return spec, kernel


@pytest.mark.parametrize("name", KERNELS)
@pytest.mark.parametrize("capability", sorted(ARCHS))
def test_spec_matches_kernel_signature(name: str, capability: int) -> None:
    module = load_kernel_file(name)
    spec = resolve_spec(module, ARCHS[capability])
    fn = getattr(module, spec["kernel"])
    assert list(spec["signature"]) == fn.arg_names, f"{name}: signature keys must be the kernel's arguments in order"
    constexpr_args = [a for a, t in spec["signature"].items() if t == "constexpr"]
    assert sorted(constexpr_args) == sorted(spec["constexprs"]), f"{name}: constexprs must cover the constexpr args"
    assert set(spec["divisibility"]) <= set(spec["signature"]) - set(constexpr_args)
    assert isinstance(spec["num_warps"], int) and isinstance(spec["num_stages"], int)
    # Descriptor blocks in the signature must be what the launcher builds from the same constexprs.
    for arg, ty in spec["signature"].items():
        if ty.startswith("tensordesc<"):
            block = [int(x) for x in re.search(r"\[([^\]]*)\]", ty).group(1).split(",")]
            assert all(b > 0 and b & (b - 1) == 0 for b in block), f"{name}.{arg}: {ty}"


@pytest.mark.parametrize("name", KERNELS)
@pytest.mark.parametrize("capability", sorted(ARCHS))
def test_kernel_compiles_offline(name: str, capability: int) -> None:
    _, kernel = compiled(name, capability)
    counts = {op: len(re.findall(rf"= \"?{re.escape(op)}\b", kernel.asm["ttir"])) for op in EXPECTED_TTIR[name]}
    assert counts == EXPECTED_TTIR[name], f"{name} sm_{capability} TTIR ops"
    ttgir_op, ptx_insn = EXPECTED_MMA[capability]
    ttgir = kernel.asm["ttgir"]
    assert ttgir_op in ttgir, f"{name} sm_{capability}: expected {ttgir_op} in the TTGIR"
    assert "ttng.async_tma_copy_global_to_local" in ttgir, f"{name} sm_{capability}: expected TMA loads"
    other_op = EXPECTED_MMA[90 if capability == 100 else 100][0]
    assert other_op not in ttgir, f"{name} sm_{capability}: unexpected {other_op}"
    ptx = kernel.asm["ptx"]
    # A kernel whose tensor memory does not fit is lowered to a bare `trap` (Triton 3.6 on sm_100).
    assert ptx_insn in ptx and not re.search(r"^\s*trap;", ptx, re.M), f"{name} sm_{capability}: no {ptx_insn}"
    cubin = kernel.asm["cubin"]
    assert isinstance(cubin, bytes) and cubin[:4] == b"\x7fELF", f"{name} sm_{capability}: no cubin"
    assert 0 < kernel.metadata.shared <= MAX_SHARED, f"{name} sm_{capability}: shared {kernel.metadata.shared}"


def test_kernel_files_import_without_torch() -> None:
    # A child process where `import torch` fails even if torch is installed: importing the kernel files
    # must neither need torch nor touch a GPU.
    script = textwrap.dedent(f"""
        import importlib.abc, importlib.util, sys
        class NoTorch(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name == "torch" or name.startswith("torch."):
                    raise ImportError("torch is blocked in this test")
        sys.meta_path.insert(0, NoTorch())
        for name in {KERNELS!r}:
            spec = importlib.util.spec_from_file_location("k_" + name, {str(ROOT / "kernels")!r} + "/" + name + ".py")
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            assert isinstance(module.TWILL_SPEC, dict), name
            for attr in ("make_inputs", "launch", "reference", "flops", "PROBLEM", "SMALL", "main"):
                assert hasattr(module, attr), (name, attr)
            assert module.flops(**module.SMALL) > 0, name
        assert not any(m == "torch" or m.startswith("torch.") for m in sys.modules)
        print("ok")
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr[-2000:]


INTERPRETER_SIZES = {
    "fa3": {"B": 1, "H": 2, "N": 256, "D": 128},
    "fa3_subtiled": {"B": 1, "H": 2, "N": 256, "D": 128},
    "fa_bwd": {"B": 2, "H": 1, "N": 256, "D": 128},
    "gemm": {"M": 200, "N": 264, "K": 136},
}


def _interpreter_missing() -> str | None:
    """What the interpreter tests lack here, or None. Triton 3.6's interpreter turns a tensor handle
    into a Python int with int(array([x])) (``tensor.__index__``), a TypeError from numpy 2.4 on
    (the deprecation of converting an array with ndim > 0 to a scalar expired); it reads and writes
    torch tensors (CPU is enough)."""
    import numpy

    if tuple(int(x) for x in numpy.__version__.split(".")[:2]) >= (2, 4):
        return f"Triton 3.6's interpreter needs numpy < 2.4 (found {numpy.__version__}; .ci/constraints.txt pins it)"
    if importlib.util.find_spec("torch") is None:
        return "needs torch (its CPU build is enough; .ci/run installs it)"
    return None


@pytest.mark.parametrize("name", KERNELS)
def test_launcher_matches_reference_in_interpreter(name: str) -> None:
    missing = _interpreter_missing()
    if missing and os.environ.get("TWILL_CI"):
        pytest.fail(f"CI must run the interpreter tests: {missing}")      # a skip here would hide them
    if missing:
        pytest.skip(missing)
    # Runs launch() and reference() on the CPU through Triton's interpreter: checks grids, strides,
    # descriptors, the atomic dQ and the logsumexp convention without a GPU.
    script = textwrap.dedent(f"""
        import importlib.util
        spec = importlib.util.spec_from_file_location("k", {str(ROOT / "kernels" / (name + ".py"))!r})
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        cfg = {{"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 64}} if {name!r} == "gemm" else {{}}
        inputs = m.make_inputs(**{INTERPRETER_SIZES[name]!r}, device="cpu")
        out, ref = m.launch(inputs, **cfg), m.reference(inputs)
        outs, refs = (out, ref) if isinstance(out, tuple) else ((out,), (ref,))
        for o, r in zip(outs, refs):
            assert o.shape == r.shape, (o.shape, r.shape)
            err = ((o.float() - r.float()).norm() / r.float().norm()).item()
            assert err < 2e-3, err
        if hasattr(m, "reference_lse2"):
            lse2, ref2 = m.forward(inputs)[1], m.reference_lse2(inputs)
            assert ((lse2 - ref2).abs().max() < 1e-4).item()
        print("ok")
    """)
    env = dict(os.environ, TRITON_INTERPRET="1")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=env)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr[-2000:]
