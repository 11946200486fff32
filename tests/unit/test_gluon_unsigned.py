"""Kernels whose launches pass unsigned data (uint8 weights, packed nibbles) compile with those types. TTGIR's
integers are signless, so the generated kernel's signature says i8 where the launch passes uint8, and Triton's JIT
compiles it for uint8 at run time: a literal the TTGIR prints negative (``x & 0x80`` as ``& -128``) then meets an
unsigned tensor, which Gluon refuses (run 142c: the MXFP4 upcast GEMM failed so on the GPU, never offline). Each
committed kernel of a file whose TWILL_SPEC declares an unsigned pointer is compiled here with the spec's types."""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest

from codegen.gluon.generate import load_module
from profiling.kernel import kernel_module

ROOT = Path(__file__).resolve().parents[2]
GLUON = ROOT / "bench/results/gluon"


def _unsigned_variants() -> list[str]:
    out = []
    for d in sorted(GLUON.iterdir()):
        meta = d / "variant.json"
        if not meta.exists() or not (d / "kernel_gluon.py").exists():
            continue
        text = (ROOT / json.loads(meta.read_text())["kernel_file"]).read_text()
        if any(f'"*u{w}"' in text for w in (8, 16, 32, 64)):
            out.append(d.name)
    return out


@pytest.mark.parametrize("label", _unsigned_variants())
def test_a_kernel_compiles_for_the_unsigned_types_its_launch_passes(label):
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.experimental.gluon._runtime import GluonASTSource

    d = GLUON / label
    kernel = json.loads((d / "gluon.json").read_text())["gluon"]["kernel"]
    spec = kernel_module(str(ROOT / json.loads((d / "variant.json").read_text())["kernel_file"])).TWILL_SPEC
    sig = dict(kernel["signature"])
    unsigned = {n: t for n, t in spec["signature"].items() if n in sig and t.startswith("*u")}
    assert unsigned, f"{label}: no unsigned pointer of its spec reaches the Gluon kernel"
    sig.update(unsigned)
    names = list(sig)
    flags = {(names.index(f),): True for f in ("TWILL_COPY", "TWILL_TMA") if f in sig}
    mod = load_module((d / "kernel_gluon.py").read_text(), tempfile.mkdtemp(prefix="twill-unsigned-"))
    attrs = {(names.index(n),): [["tt.divisibility", 16]] for n in kernel.get("divisible", []) if n in sig}
    src = GluonASTSource(fn=getattr(mod, kernel["kernel"]), signature=sig, constexprs=flags, attrs=attrs)
    triton.compile(src, target=GPUTarget("cuda", 90, 32),
                   options={"num_warps": kernel["num_warps"], "maxnreg": kernel["maxnreg"]})
