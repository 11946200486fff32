"""Kernels whose launches pass unsigned data (uint8 weights, packed nibbles) compile with those types. TTGIR's
integers are signless, so the generated kernel's signature says i8 where the launch passes uint8, and Triton's JIT
compiles it for uint8 at run time: a literal the TTGIR prints negative (``x & 0x80`` as ``& -128``) then meets an
unsigned tensor, which Gluon refuses (run 142c: the MXFP4 upcast GEMM failed so on the GPU, never offline). Each
committed kernel of a file whose TWILL_SPEC declares an unsigned pointer is compiled here with the spec's types."""
from __future__ import annotations

import json
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
def test_a_kernel_compiles_for_the_unsigned_types_its_launch_passes(label, tmp_path):
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
    mod = load_module((d / "kernel_gluon.py").read_text(), str(tmp_path))
    attrs = {(names.index(n),): [["tt.divisibility", 16]] for n in kernel.get("divisible", []) if n in sig}
    src = GluonASTSource(fn=getattr(mod, kernel["kernel"]), signature=sig, constexprs=flags, attrs=attrs)
    triton.compile(src, target=GPUTarget("cuda", 90, 32),
                   options={"num_warps": kernel["num_warps"], "maxnreg": kernel["maxnreg"]})


def test_unsigned_max_min_and_compares_are_written_on_unsigned_operands():
    # run 145: tl.topk keeps the k largest keys by tl.max over a hypercube axis, a tt.reduce of arith.maxui; written
    # as gl.max on the int32 tensor it was a signed max (an order-preserving key of a positive float has its top bit
    # set), and triton_kernels' top-k kept the wrong experts. In combiners and scans the same ops and compares
    from codegen.gluon.ops import _scalar_expr, _scan_combiner

    assert _scalar_expr("arith.cmpi", "ult, %a, %b : i32") == \
        "gl.cast(%a, gl.uint32, bitcast=True) < gl.cast(%b, gl.uint32, bitcast=True)"
    assert _scalar_expr("arith.maxui", "%a, %b : i16") == \
        "gl.cast(gl.maximum(gl.cast(%a, gl.uint16, bitcast=True), gl.cast(%b, gl.uint16, bitcast=True)), gl.int16, " \
        "bitcast=True)"
    assert _scalar_expr("arith.cmpi", "slt, %a, %b : i32") == "%a < %b"
    # tl.argmax of a boolean tensor (Triton-distributed's MoE row index): its combiner compares i1 values unsigned,
    # which had been refused; a boolean is read as 0 / 1, its unsigned max and min are or / and
    assert _scalar_expr("arith.cmpi", "ugt, %a, %b : i1") == "gl.cast(%a, gl.int32) > gl.cast(%b, gl.int32)"
    assert _scalar_expr("arith.maxui", "%a, %b : i1") == "%a | %b" and _scalar_expr("arith.minui", "%a, %b : i1") \
        == "%a & %b"
    assert _scan_combiner("maxui") is None and _scan_combiner("maxsi") is not None   # an unsigned cummax: its region


def test_the_streaming_top_k_reduces_its_keys_unsigned():
    # the committed top-k kernel (run 146: exact on the H200) and run 145's probe, generated again from their schedules
    import importlib.util

    spec = importlib.util.spec_from_file_location("gluon_variants", ROOT / "bench/gluon_variants.py")
    gv = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gv)
    for d in (GLUON / "tk_topk_forward", GLUON / "runs/run145/probes/p1"):
        src = gv.regenerated_kernel(d).source
        assert src == (d / "kernel_gluon.py").read_text()
        keys = [ln for ln in src.splitlines() if "gl.max(" in ln and "gl.max(ret" in ln.replace("gl.cast(", "")]
        assert keys and all("gl.max(gl.cast(ret" in ln and "gl.uint32, bitcast=True)" in ln for ln in keys), keys[:2]


FPTOUI = '''#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func public @k(%p: f32, %x: tensor<512xf32, #blocked>) attributes {noinline = false} {
    %t = arith.fptoui %p : f32 to i32
    %u = arith.fptoui %x : tensor<512xf32, #blocked> to tensor<512xi32, #blocked>
    %b = arith.fptoui %p : f32 to i1
    tt.return
  }
}
'''


def test_a_float_converted_to_an_unsigned_integer_is_written_on_its_float_operand():
    # a dropout's integer threshold `tl.cast(p * 2**24, tl.uint32)` (the xFormers / Apex style of comparing Philox's
    # raw words): arith.fptoui reads a float, not an integer, and its operand type was parsed as one (a ValueError)
    from codegen.gluon.layouts import aliases
    from codegen.gluon.ops import translate
    from codegen.gluon.values import Context, Val
    from twill.ir.function import read_function

    fn = read_function(FPTOUI, "k")
    ctx = Context(fn, aliases(FPTOUI), 4, 4)
    for a in fn.args:
        ctx.vals[a.name] = Val(a.name.lstrip("%"), ctx.ttype(a.name))
    scalar, tensor, boolean = (translate(op, ctx) for op in fn.ops if op.name == "arith.fptoui")
    assert scalar == ["t = gl.cast(gl.cast(p, gl.uint32), gl.int32, bitcast=True)"], scalar
    assert tensor == ["u = gl.cast(x.to(gl.uint32), gl.int32, bitcast=True)"], tensor
    assert boolean == ["b = gl.cast(p, gl.int1)"], boolean


def test_a_narrow_integer_the_program_casts_signed_is_converted_signed():
    # run 222: SGLang's int4 KV decode loads packed nibbles from a uint8 buffer, ``(v & 0xF).to(tl.int8) - 8``: the
    # cast is no op in TTGIR (i8 either way) and its arith.sitofp to fp16 was written on Gluon's uint8 tensor, an
    # unsigned conversion (-5 read as 251): the output x70 off. The conversion is written on the tensor read as int8
    source = (GLUON / "sglang_decode_int4kv_reducev" / "kernel_gluon.py").read_text()
    converts = [ln for ln in source.splitlines() if ".to(gl.float16)" in ln and "convert2_v_tmp" in ln]
    assert converts and all("gl.cast(v_int8, gl.int8, bitcast=True).to(gl.float16)" in ln for ln in converts), converts


def _generated(tmp_path: Path, text: str):
    """The Gluon kernel the default route writes for the kernel file ``text``."""
    pytest.importorskip("triton")
    from twill.machine.model import load_machine
    from twill.pipeline import OptimizeOptions, optimize
    path = tmp_path / "kernel.py"
    path.write_text(text)
    r = optimize(str(path), load_machine("h100"), OptimizeOptions(time_limit=2.5, threads=2))
    assert r.gluon is not None and r.gluon.kernel is not None, r.gluon and r.gluon.reason
    return r.gluon.kernel


NIBBLES = '''
import triton
import triton.language as tl

TWILL_SPEC = {"signature": {"x_ptr": "*u8", "out_ptr": "*fp32", "N": "i32"},
              "constexprs": {"BLOCK": 1024}, "num_warps": 4, "divisibility": ["x_ptr", "out_ptr", "N"]}


@triton.jit
def nibble_sign_count(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for i in range(0, N, BLOCK):
        v = tl.load(x_ptr + i + offs)
        lo = (v & 0xF).to(tl.int8) - 8
        acc += tl.where(lo < 0, 1.0, 0.0) + lo.to(tl.float32)
    tl.store(out_ptr + offs, acc)
'''


def test_a_signed_nibble_compared_and_converted_is_a_graph_and_read_signed(tmp_path):
    # session 91: the nibble's integer ops (``address`` by category) folded into the compare's node, which the
    # conversion's node (a cast folds into no elementwise node) fed again: refused as a cycle of distance 0. Now the
    # integer ops are a node of their own, and both readers read the value as int8 (Gluon's tensor is uint8)
    src = _generated(tmp_path, NIBBLES).source
    assert "gl.int8, bitcast=True).to(gl.float32)" in src and "gl.int8, bitcast=True).to(gl.int32)" in src


BYTES = '''
import triton
import triton.language as tl

TWILL_SPEC = {"signature": {"x_ptr": "*u8", "out_ptr": "*i32", "N": "i32"},
              "constexprs": {"BLOCK": 1024}, "num_warps": 4, "divisibility": ["x_ptr", "out_ptr", "N"]}


@triton.jit
def signed_bytes(x_ptr, out_ptr, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    acc = tl.zeros([BLOCK], dtype=tl.int32)
    for i in range(0, N, BLOCK):
        v = tl.load(x_ptr + i + offs).to(tl.int8)
        acc += ((v >> 2) + v // 3 + v % 5 + tl.maximum(v, v >> 1)).to(tl.int32)
    tl.store(out_ptr + offs, acc)
'''


def test_a_signed_division_remainder_shift_and_max_of_unsigned_bytes_are_written_signed(tmp_path):
    # session 92: the launch passes uint8, the program casts to int8; TTGIR's arith.shrsi / divsi / remsi / maxsi
    # read their operands signed, Gluon's `>>` / `//` / `%` / gl.maximum on a uint8 tensor are unsigned (-8 >> 2
    # would be 62, not -2). Each is written on the tensor bitcast to int8 and its result bitcast back, and the kernel
    # compiles for the uint8 signature the launch gives it
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.experimental.gluon._runtime import GluonASTSource
    kernel = _generated(tmp_path, BYTES)
    src = kernel.source
    for op in (">> 2", "// 3", "% 5"):
        lines = [ln for ln in src.splitlines() if f" {op}," in ln or f" {op})" in ln]
        assert lines and all(f"gl.int8, bitcast=True) {op}, " in ln and ".dtype, bitcast=True)" in ln
                             for ln in lines), (op, lines)
    maxes = [ln for ln in src.splitlines() if "gl.maximum(" in ln]
    assert maxes and all("gl.maximum(gl.cast(" in ln and ln.count("gl.int8, bitcast=True)") == 2 for ln in maxes), maxes
    mod = load_module(src, str(tmp_path))
    sig = {**kernel.signature, "x_ptr": "*u8"}
    src_ast = GluonASTSource(fn=getattr(mod, kernel.name), signature=sig, constexprs={}, attrs={})
    triton.compile(src_ast, target=GPUTarget("cuda", 90, 32), options={"num_warps": kernel.num_warps})
