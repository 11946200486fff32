"""One TTGIR op as Gluon source: the elementwise, shape, layout, memory and reduction vocabulary.

Ops with an ordering role in the schedule (tile loads, tensor-core dots, TMA stores, the loop) are
written by ``codegen.gluon.partition``; everything else goes through ``translate``, which returns
the source lines defining the op's results in the partition's ``Context``.
"""
from __future__ import annotations

import functools
import hashlib
import re
from pathlib import Path
from typing import Callable

from codegen.gluon.layouts import Blocked, Linear, Mma, NvmmaShared, gl_dtype
from codegen.gluon.values import Context, Val, float_literal, py_name
from twill.errors import UnsupportedError
from twill.ir.ttgir import IROp

_BINARY = {"arith.addf": "+", "arith.subf": "-", "arith.mulf": "*", "arith.divf": "/", "arith.addi": "+",
           "arith.subi": "-", "arith.muli": "*", "arith.divsi": "//", "arith.remsi": "%", "arith.andi": "&",
           "arith.ori": "|", "arith.xori": "^", "arith.shli": "<<", "arith.shrsi": ">>", "arith.remf": "%",
           "tt.addptr": "+"}
_CALL2 = {"arith.maxnumf": "gl.maximum", "arith.minnumf": "gl.minimum", "arith.maxsi": "gl.maximum",
          "arith.minsi": "gl.minimum", "arith.maximumf": "gl.maximum", "arith.minimumf": "gl.minimum",
          "tt.precise_divf": "gl.div_rn",      # tl.math.div_rn: IEEE division rounded to nearest
          "tt.approx_divf": "gl.fdiv"}         # Triton 3.9's div.approx.f32 (tl.fdiv(approx=True), and fp32 `/` there)
_CALL2_KW = {"tt.approx_divf": ", approx=True"}
_UNARY = {"math.exp2": "gl.exp2", "math.exp": "gl.exp", "math.log": "gl.log", "math.log2": "gl.log2",
          "math.sqrt": "gl.sqrt", "math.rsqrt": "gl.rsqrt", "math.sin": "gl.sin", "math.cos": "gl.cos",
          "math.absf": "gl.abs", "math.absi": "gl.abs", "math.floor": "gl.floor", "math.ceil": "gl.ceil",
          "math.erf": "gl.erf", "tt.precise_sqrt": "gl.sqrt_rn"}
_CASTS = {"arith.truncf", "arith.extf", "arith.sitofp", "arith.fptosi", "arith.uitofp", "arith.fptoui",
          "arith.extsi", "arith.extui", "arith.trunci", "tt.fp_to_fp", "arith.index_cast"}
_CMP = {"eq": "==", "ne": "!=", "slt": "<", "sle": "<=", "sgt": ">", "sge": ">=", "ult": "<", "ule": "<=",
        "ugt": ">", "uge": ">=", "oeq": "==", "one": "!=", "olt": "<", "ole": "<=", "ogt": ">", "oge": ">=",
        "ueq": "==", "une": "!=", "ugt_f": ">", "uno": "!="}
_REDUCE = {"maxnumf": "gl.max", "maximumf": "gl.max", "addf": "gl.sum", "addi": "gl.sum", "minnumf": "gl.min",
           "minimumf": "gl.min", "maxsi": "gl.max", "minsi": "gl.min", "maxui": "gl.max", "minui": "gl.min"}


def _int_attr(op: IROp, name: str) -> int:
    m = re.search(re.escape(name) + r" = (-?\d+)", op.full_text)
    if not m:
        raise UnsupportedError(f"{op.name} without {name}", where=source_where(op))
    return int(m.group(1))


def _order(op: IROp) -> list[int]:
    m = re.search(r"order = array<i32: ([\d, ]+)>", op.full_text)
    return [int(x) for x in m.group(1).split(",")] if m else [1, 0]


def _res(op: IROp) -> str:
    return op.results[0]


def constant(op: IROp, ctx: Context) -> list[str]:
    """A constant: a scalar literal, or a splat kept as its scalar (broadcast at use). MLIR prints an i1 scalar
    without its type (``%true = arith.constant true``: the mask of a scalar atomic)."""
    m = re.search(r"arith\.constant\s+(dense<(.*?)>|[^:{]+?)\s*(?:\{[^}]*\})?\s*(?::\s*(.+))?$",
                  op.text.split(" loc(")[0].strip())
    if not m:
        raise UnsupportedError("a constant the Gluon back end cannot read", where=source_where(op), found=op.text)
    raw = (m.group(2) if m.group(2) is not None else m.group(1)).strip()
    t = ctx.ttype(_res(op))
    if raw.startswith("["):
        raise UnsupportedError("a non-uniform dense constant", where=source_where(op), found=raw[:40])
    if raw in ("true", "false"):
        lit = "True" if raw == "true" else "False"
    elif t.dtype.startswith(("f", "bf")):
        lit = float_literal(raw, t.dtype)
    else:
        lit = str(int(raw, 0))
    ctx.define(_res(op), lit, broadcast=t.kind == "tensor")
    return []


# Integer ops that read their operands as unsigned (TTGIR's integers are signless; Gluon's are signed or not):
# written on the operands bitcast to the unsigned type of their width, the result bitcast back.
_UNSIGNED = {"arith.shrui": ">>", "arith.divui": "//", "arith.remui": "%"}
_UNSIGNED_CALL = {"tt.mulhiui": "gl.umulhi", "arith.maxui": "gl.maximum", "arith.minui": "gl.minimum"}


def _operand_int(op: IROp) -> str:
    """The integer type ``op`` reads, from its own signature (``: i64``, ``: tensor<8xi1, #l> to ...``): the name
    table's type of an operand can be another value's of the same name (a name a sibling region reuses)."""
    sig = re.sub(r"\s*loc\(.*$", "", op.text).rsplit(" : ", 1)[-1].split(" to ")[0]
    m = re.search(r"(?:^|x|<)(i\d+)\b", sig.strip())
    if not m:
        raise UnsupportedError(f"{op.name} on a type the Gluon back end cannot read", where=source_where(op), found=sig)
    return m.group(1)


def _unsigned(a: Val, dtype: str) -> str:
    """An operand read as unsigned: a literal as its unsigned value, anything else bitcast."""
    bits = int(dtype[1:])
    if re.fullmatch(r"\(?-?\d+\)?", a.expr):
        return str(int(a.expr.strip("()")) % (1 << bits))
    return f"gl.cast({a.expr}, gl.uint{bits}, bitcast=True)"


def _unsigned_op(op: IROp, ctx: Context, args: list[Val]) -> str | None:
    """The expression of an op that reads its integer operands as unsigned; None for any other op."""
    n = op.name
    pred = re.search(r"arith\.cmpi\s+(\w+)", op.text) if n == "arith.cmpi" else None
    if not (n in _UNSIGNED or n in _UNSIGNED_CALL or n in ("arith.uitofp", "arith.extui", "arith.fptoui")
            or (pred and pred.group(1).startswith("u"))):
        return None
    out = ctx.ttype(_res(op)).dtype
    back = f"gl.int{out[1:]}" if out.startswith("i") and out != "i1" else None
    if n == "arith.fptoui":     # a float operand (no integer to read unsigned): the result converted as unsigned
        if back is None:
            return None
        as_uint = _cast(args[0].expr, f"gl.uint{out[1:]}", args[0].type.kind != "tensor")
        return f"gl.cast({as_uint}, {back}, bitcast=True)"
    src = _operand_int(op)
    if src == "i1":
        return None         # a boolean: Gluon's casts of int1 are already unsigned (zero-extended, uitofp)
    u = [_unsigned(a, src) for a in args]
    if pred:
        return f"{u[0]} {_CMP[pred.group(1)]} {u[1]}"
    if n == "arith.uitofp":
        return _cast(u[0], gl_dtype(out), args[0].type.kind != "tensor")
    if n == "arith.extui":
        e = _cast(u[0], f"gl.uint{out[1:]}", args[0].type.kind != "tensor")
    elif n in _UNSIGNED:
        e = f"{u[0]} {_UNSIGNED[n]} {u[1]}"
    else:
        e = f"{_UNSIGNED_CALL[n]}({u[0]}, {u[1]})"
    return f"gl.cast({e}, {back}, bitcast=True)"


_BITWISE = ("arith.andi", "arith.ori", "arith.xori")
_SIGNED_ARITH = ("arith.divsi", "arith.remsi", "arith.shrsi", "arith.maxsi", "arith.minsi")


def _read_signed(op: IROp, args: list[Val], ex: list[str]) -> list[str]:
    """``ex`` with each narrow (i8, i16) tensor operand bitcast to the signed type of its width. TTGIR's integers are
    signless, Gluon's tensors carry a sign: a tensor loaded from a uint8 buffer is uint8 in Gluon where Triton's
    program had cast it to int8 (``(v & 0xF).to(tl.int8) - 8``: no op in TTGIR), so the ops that read their operands
    signed (a sign-extending conversion, a signed order) are written on them so (SGLang's int4 KV decode, run 222: -5
    dequantised as 251, its output x70 off); a signed division, remainder, arithmetic shift, max or min likewise
    (``elementwise`` bitcasts their result back to the tensor's own dtype). A no-op where the tensor is signed
    already."""
    width = _operand_int(op)
    if width not in ("i8", "i16"):
        return ex
    return [f"gl.cast({x}, gl.int{width[1:]}, bitcast=True)" if a.type.kind == "tensor" and not a.broadcast else x
            for a, x in zip(args, ex)]


def _signed_arith(n: str, ex: list[str]) -> str:
    """A signed division, remainder, shift, max or min of operands already read signed (``_read_signed``)."""
    return f"{ex[0]} {_BINARY[n]} {ex[1]}" if n in _BINARY else f"{_CALL2[n]}({ex[0]}, {ex[1]})"


def _negative_literal(args: list[Val]) -> int | None:
    """The index of the operand that is a negative integer literal, where the other is a tensor; else None."""
    for i, a in enumerate(args):
        other = args[1 - i]
        if re.fullmatch(r"\(?-\d+\)?", a.expr) and other.type.kind == "tensor" and not other.broadcast:
            return i
    return None


def _signed_bitwise(n: str, args: list[Val], ex: list[str], dtype: str) -> str:
    """A bitwise op with a negative literal (TTGIR's integers are signless: ``x & 0x80`` on a uint8 tensor prints as
    ``& -128``), written on the tensor bitcast to the signed type of its width and bitcast back to its own dtype:
    Gluon refuses a negative scalar beside an unsigned tensor, which the kernel's tensor is where the launch passes
    uint8 data (the signature the TTGIR gives says i8). The same bits either way."""
    i = _negative_literal(args)
    t, lit = ex[1 - i], ex[i].strip("()")
    signed = f"gl.cast({t}, gl.int{dtype[1:]}, bitcast=True)"
    return f"gl.cast({signed} {_BINARY[n]} {lit}, {t}.dtype, bitcast=True)"


def _cast(x: str, dtype: str, scalar: bool, bitcast: bool = False, rounding: str | None = None) -> str:
    """``x`` cast to ``dtype``. A scalar through ``gl.cast``: an integer argument equal to 1 reaches the kernel
    as a Python int (Triton's JIT specialises it), which has no ``.to``. ``rounding``: a float downcast's mode
    (``tt.fp_to_fp``'s ``rounding = rtz``), written as ``fp_downcast_rounding``."""
    flag = ", bitcast=True" if bitcast else f", fp_downcast_rounding='{rounding}'" if rounding else ""
    return f"gl.cast({x}, {dtype}{flag})" if scalar else f"{x}.to({dtype}{flag})"


def elementwise(op: IROp, ctx: Context) -> list[str]:
    n, res = op.name, _res(op)
    args = [ctx.get(v) for v in op.operands]
    ex = [ctx.tensor(v) if a.smem else a.expr for v, a in zip(op.operands, args)]   # a ring's tile: read it first
    scalar = all(a.broadcast or a.type.kind != "tensor" for a in args) and ctx.ttype(res).kind == "tensor"
    unsigned = _unsigned_op(op, ctx, args)
    own = next((x for a, x in zip(args, ex) if a.type.kind == "tensor" and not a.broadcast), None)
    if n in _SIGNED_ARITH and not scalar and own is not None and _read_signed(op, args, ex) != ex:
        ex = [ctx.tensor(v, like=res) if a.broadcast and n in _CALL2 else x for v, a, x in zip(op.operands, args, ex)]
        e = f"gl.cast({_signed_arith(n, _read_signed(op, args, ex))}, {own}.dtype, bitcast=True)"
    elif unsigned is not None:
        e = unsigned
    elif n in _BITWISE and not scalar and _negative_literal(args) is not None:
        e = _signed_bitwise(n, args, ex, _operand_int(op))
    elif n in _BINARY:
        e = f"{ex[0]} {_BINARY[n]} {ex[1]}"
    elif n in _CALL2 or n == "math.fma":   # gl.maximum / gl.div_rn / gl.fma take tensors of one shape: a constant
        # side made one (tl.maximum(w, 1.0), tl.math.div_rn(x, 3.0), tl.fma(x, 2.0, y))
        nan = ", propagate_nan=tl.PropagateNan.ALL" if n in ("arith.maximumf", "arith.minimumf") else ""
        ex = [ctx.tensor(v, like=res) if a.broadcast and not scalar else x for v, a, x in zip(op.operands, args, ex)]
        e = (f"gl.fma({ex[0]}, {ex[1]}, {ex[2]})" if n == "math.fma"
             else f"{_CALL2[n]}({ex[0]}, {ex[1]}{nan}{_CALL2_KW.get(n, '')})")
    elif n in _UNARY:
        e = f"{_UNARY[n]}({ex[0]})"
    elif n == "arith.negf":
        e = f"-{ex[0]}"
    elif n == "arith.select":
        e = f"gl.where({ex[0]}, {ex[1]}, {ex[2]})"
        t = args[1].type        # the values' type (the op prints the condition's first)
        if not scalar and args[1].broadcast and args[2].broadcast and t.kind == "tensor" \
                and t.dtype not in ("f32", "i32", "i1"):          # the types Python's literals already have
            e += f".to({gl_dtype(t.dtype)})"    # two constants: Python's 1.0 and 0.0 are fp32, the kernel's fp16 ones
    elif n in ("arith.cmpf", "arith.cmpi"):
        pred = re.search(r"arith\.cmp[fi]\s+(\w+)", op.text).group(1)
        if n == "arith.cmpi" and pred[0] == "s":
            ex = _read_signed(op, args, ex)
        e = f"{ex[0]} {_CMP[pred]} {ex[1]}"
    elif n in _CASTS or n in ("tt.bitcast", "arith.bitcast"):
        if n in ("arith.sitofp", "arith.extsi"):
            ex = _read_signed(op, args, ex)
        t = ctx.ttype(res)      # a scalar pointer's bitcast: a float tl.atomic_max reads its buffer as integers
        to = f"gl.pointer_type({gl_dtype(t.dtype)})" if t.kind == "ptr" else gl_dtype(t.dtype)
        mode = re.search(r"rounding = (rtne|rtz)", op.text) if n == "tt.fp_to_fp" else None   # .to(tl.float8e5,
        # fp_downcast_rounding="rtz"): the mode kept (Gluon's default is rtne)
        e = _cast(ex[0], to, args[0].type.kind != "tensor" or args[0].broadcast, n not in _CASTS,   # a splat
                  mode and mode.group(1))        # constant's value, a Python float (MegaBlocks' zeros truncated to bf16)
    elif n == "tt.clampf":     # Gluon 3.6 has no gl.clamp: a max then a min, NaN propagated as the op says
        nan = ", propagate_nan=tl.PropagateNan.ALL" if "propagateNan = all" in op.text else ""
        lo, hi = (ctx.tensor(v, like=res) if a.broadcast and not scalar else x
                  for v, a, x in zip(op.operands[1:], args[1:], ex[1:]))
        e = f"gl.minimum(gl.maximum({ex[0]}, {lo}{nan}), {hi}{nan})"
    elif n == "tt.int_to_ptr":      # a pointer loaded as an integer (a grouped GEMM's per-group operands)
        t = ctx.ttype(res)
        elem = re.fullmatch(r"!tt\.ptr<(\w+)>", t.dtype) if t.kind == "tensor" else None
        e = f"{ex[0]}.to(gl.pointer_type({gl_dtype(elem.group(1) if elem else t.dtype)}))"
    elif n == "tt.ptr_to_int":
        e = f"{ex[0]}.to(gl.int64)"
    elif n == "tt.extern_elementwise":       # a libdevice call (tanh, erf, rsqrt, pow, ...: the kernel's own choice)
        e = f"libdevice.{_libdevice(op)}({', '.join(ex)})"
    else:
        raise UnsupportedError(f"{n} is not in the Gluon back end's vocabulary", where=source_where(op))
    if scalar:
        ctx.define(res, f"({e})", broadcast=True)
        return []
    ctx.define(res, py_name(res))
    return [f"{py_name(res)} = {e}"]


def splat(op: IROp, ctx: Context) -> list[str]:
    ctx.define(_res(op), ctx.get(op.operands[0]).expr, broadcast=True)
    return []


def make_range(op: IROp, ctx: Context) -> list[str]:
    res = _res(op)
    start, end = _int_attr(op, "start"), _int_attr(op, "end")
    t = ctx.ttype(res)
    lay = ctx.layout(t.layout)
    if ctx.split_dim(res) is not None:
        n = (end - start) // ctx.subtiles
        first = start + ctx.subtile * n
        line = f"{py_name(res)} = gl.arange(0, {n}, layout={lay})" + (f" + {first}" if first else "")
    else:
        line = f"{py_name(res)} = gl.arange({start}, {end}, layout={lay})"
    ctx.define(res, py_name(res))
    return [line]


def expand_dims(op: IROp, ctx: Context) -> list[str]:
    res, src = _res(op), op.operands[0]
    if ctx.get(src).broadcast:
        ctx.define(res, ctx.get(src).expr, broadcast=True)
        return []
    ctx.define(res, py_name(res))
    return [f"{py_name(res)} = gl.expand_dims({ctx.get(src).expr}, {_int_attr(op, 'axis')})"]


def broadcast(op: IROp, ctx: Context) -> list[str]:
    res, src = _res(op), op.operands[0]
    if ctx.get(src).broadcast:
        ctx.define(res, ctx.get(src).expr, broadcast=True)
        return []
    ctx.define(res, py_name(res))
    val = ctx.get(src)
    expr, have, want = val.expr, ctx.ttype(src).layout, ctx.ttype(res).layout
    if not val.smem and have is not None and want is not None and have != want:
        # Triton 3.9's TTGIR broadcasts a [64, 1] tile of one wgmma layout into another's (the same registers), and
        # its Gluon's broadcast_to wants one layout: "Layout mismatch in broadcast" (3.6's TTGIR has none such)
        expr = f"gl.convert_layout({expr}, {ctx.layout(want)})"
    if not val.smem:
        ctx.vals[res].pre = expr
    return [f"{py_name(res)} = {expr}.broadcast_to({list(ctx.shape(res))})"]


def convert_layout(op: IROp, ctx: Context) -> list[str]:
    """``ttg.convert_layout``. Of a broadcast tile (a row of per-column scales broadcast to the accumulator's shape,
    as Triton's layout passes leave it before pipelining: SGLang's block-scaled fp8 MoE), the broadcast's source is
    converted and broadcast after: a [1, 128] tile moved, not a [64, 128] one through shared memory every iteration
    (run 70: x0.54 of Triton's kernel, whose later layout pass does the same)."""
    res, src = _res(op), op.operands[0]
    if ctx.get(src).broadcast:
        ctx.define(res, ctx.get(src).expr, broadcast=True)
        return []
    val = ctx.get(src)
    ctx.define(res, py_name(res))
    lay = ctx.layout(ctx.ttype(res).layout)
    if val.smem:      # a ring's tile read in registers (a wgmma's A operand): loaded in the result's layout
        return [f"{py_name(res)} = {val.expr}.load({lay})"]
    if val.pre is not None and not {src, res} & (set(ctx.relayout) | set(ctx.as_is)):
        return [f"{py_name(res)} = gl.convert_layout({val.pre}, {lay}).broadcast_to({list(ctx.shape(res))})"]
    return [f"{py_name(res)} = gl.convert_layout({val.expr}, {lay})"]


def reshape(op: IROp, ctx: Context) -> list[str]:
    """``tt.reshape``. To its own shape (``tl.max(x)`` / ``tl.sum(x)`` with no axis flattens ``x`` first, a 1-D
    block to itself): with ``allow_reorder`` the block itself, in its own layout; otherwise converted to the
    result's layout. To another shape (``tl.interleave``'s join then reshape, a flattened index table, an
    epilogue's sub-tiles): ``gl.reshape``, whose layout Gluon infers as Triton does, then the result's layout.
    A reshape allowed to reorder the elements to another shape (``tl.sum(x)`` of a 2-D tile, flattened before the
    whole-tile reduction: Mamba-2's ``dD = tl.sum(dout_res * x)``) is written as one that keeps their order, which
    any order allows: Gluon's reshape has no ``can_reorder``."""
    res, src = _res(op), op.operands[0]
    if ctx.get(src).broadcast:
        ctx.define(res, ctx.get(src).expr, broadcast=True)
        return []
    same = list(ctx.shape(src)) == list(ctx.shape(res))
    if "allow_reorder" in op.text and same:
        # the elements in any order (Triton's flattening before a whole-block reduction): the block as it is laid
        # out, no data moved; a convert_layout would round-trip it through shared memory every iteration
        ctx.as_is[res] = ctx.ttype(src).layout
        ctx.define(res, py_name(res))
        return [f"{py_name(res)} = {ctx.tensor(src)}"]
    ctx.define(res, py_name(res))
    x = ctx.tensor(src) if same else f"gl.reshape({ctx.tensor(src)}, {list(ctx.shape(res))})"
    return [f"{py_name(res)} = gl.convert_layout({x}, {ctx.layout(ctx.ttype(res).layout)})"]


def is_sync_dot(op: IROp, ctx: Context) -> bool:
    """A ``tt.dot`` Triton lowered to mma.sync (``#ttg.nvidia_mma`` version 2: a tile of fewer than 64 rows per
    warpgroup, or warps not in warpgroups) or to FMAs (a blocked result: fp32 with ``input_precision="ieee"``, a K
    below the MMA's), not to wgmma: its operands in registers, synchronous."""
    if op.name != "tt.dot" or not op.results:
        return False
    layout = ctx.ttype(op.results[0]).layout
    return isinstance(layout, Blocked) or (isinstance(layout, Mma) and layout.version[0] == 2)


def dot(op: IROp, ctx: Context) -> list[str]:
    """A dot Triton lowered to mma.sync or FMAs (``is_sync_dot``): ``mma_v2`` / ``gl.dot_fma`` on its register
    operands, in their dot-operand layouts, synchronous. A wgmma dot is written by the loop writer (asynchronous,
    its waits from the schedule), never here."""
    res = _res(op)
    if not is_sync_dot(op, ctx):
        raise UnsupportedError("a dot outside the scheduled loop", where=source_where(op),
                               expected="the loop's wgmma dots, or mma.sync / FMA ones", found=op.text.strip()[:80])
    a, b = (ctx.tensor(v) for v in op.operands[:2])
    c = ctx.tensor(op.operands[2], like=res)
    ctx.define(res, py_name(res))
    if isinstance(ctx.ttype(res).layout, Blocked):
        return [f"{py_name(res)} = gl.dot_fma({a}, {b}, {c})"]
    prec = ""
    if ctx.ttype(op.operands[0]).dtype == "f32":
        m = re.search(r"inputPrecision = (\w+)", op.text)
        prec = f", input_precision={(m.group(1) if m else 'tf32')!r}"
    return [f"{py_name(res)} = mma_v2({a}, {b}, {c}{prec})"]


def wgmma(op: IROp, ctx: Context) -> list[str]:
    """A wgmma outside the scheduled loop (a dot before it, or after it: flash-linear-attention's chunk kernels
    multiply the intra-chunk scores by V once the loop over K is done): issued and retired at once, as Triton lowers
    a dot its pipeliner did not make asynchronous. A reads registers (a dot-operand layout) or shared memory, B
    shared memory; both come from ops written before it (a ``ttg.local_alloc``, its ``memdesc_trans``)."""
    res = _res(op)
    a_val = ctx.get(op.operands[0])
    a = a_val.expr if a_val.type.kind != "tensor" or a_val.smem else ctx.tensor(op.operands[0])
    b = ctx.get(op.operands[1]).expr
    c = ctx.tensor(op.operands[2], like=res)
    ctx.define(res, py_name(res))
    use_acc = f", use_acc={ctx.get(op.operands[3]).expr}" if len(op.operands) > 3 else ""
    return [f"{py_name(res)} = warpgroup_mma({a}, {b}, {c}{use_acc}{imprecise(op)})"]


def imprecise(op: IROp) -> str:
    """A wgmma's ``max_num_imprecise_acc`` argument where the dot set one (``tl.dot(..., max_num_imprecise_acc=32)``:
    an fp8 product added into the fp32 accumulator every 32 elements of K, as DeepSeek-style FP8 GEMMs ask for
    precision); nothing for Triton's default (2^30, never)."""
    m = re.search(r"maxNumImpreciseAcc = (\d+)", op.text)
    n = int(m.group(1)) if m else 0
    return f", max_num_imprecise_acc={n}" if 0 < n < 1 << 30 else ""


def join(op: IROp, ctx: Context) -> list[str]:
    """``tt.join`` (``tl.join``, and ``tl.interleave``'s first half): a new minor dimension of two, in the layout
    Gluon infers, then the result's."""
    res = _res(op)
    ctx.define(res, py_name(res))
    a, b = (ctx.tensor(v) for v in op.operands[:2])
    return [f"{py_name(res)} = gl.convert_layout(gl.join({a}, {b}), {ctx.layout(ctx.ttype(res).layout)})"]


def cat(op: IROp, ctx: Context) -> list[str]:
    """``tt.cat`` (``tl.cat(a, b, can_reorder=True)``, 1-D; a count or a bound over both blocks): Gluon 3.6 has no
    cat. Joined on a new minor dimension, that dimension moved first and flattened: ``a`` then ``b`` in order, the
    new dimension a register bit, so the conversion to the result's layout (Triton's: each thread's registers of
    ``a`` then of ``b``) renames registers and moves no data."""
    res = _res(op)
    ctx.define(res, py_name(res))
    a, b = (ctx.tensor(v) for v in op.operands[:2])
    flat = f"gl.reshape(gl.permute(gl.join({a}, {b}), (1, 0)), {list(ctx.shape(res))})"
    return [f"{py_name(res)} = gl.convert_layout({flat}, {ctx.layout(ctx.ttype(res).layout)})"]


def split(op: IROp, ctx: Context) -> list[str]:
    """``tt.split`` (``tl.split``): the minor dimension of two taken apart, each half in its result's layout."""
    lo, hi = op.results[:2]
    ctx.define(lo, py_name(lo))
    ctx.define(hi, py_name(hi))
    return [f"{py_name(lo)}, {py_name(hi)} = gl.split({ctx.tensor(op.operands[0])})",
            f"{py_name(lo)} = gl.convert_layout({py_name(lo)}, {ctx.layout(ctx.ttype(lo).layout)})",
            f"{py_name(hi)} = gl.convert_layout({py_name(hi)}, {ctx.layout(ctx.ttype(hi).layout)})"]


def fp4_to_fp(op: IROp, ctx: Context) -> list[str]:
    """``ttg.fp4_to_fp`` (Triton's Hopper decomposition of ``tl.dot_scaled`` with an "e2m1" operand: bytes of two fp4
    values upcast to bf16 / fp16, the packed dimension ``axis`` doubled; triton_kernels' MXFP4 weights):
    ``gl.fp4_to_fp``, whose layout Gluon infers from the operand's, then the result's."""
    res = _res(op)
    ctx.define(res, py_name(res))
    t = ctx.ttype(res)
    return [f"{py_name(res)} = gl.convert_layout(gl.fp4_to_fp({ctx.tensor(op.operands[0])}, {gl_dtype(t.dtype)}, "
            f"{_int_attr(op, 'axis')}), {ctx.layout(t.layout)})"]


def gather(op: IROp, ctx: Context) -> list[str]:
    """``tt.gather`` (``tl.gather(src, index, axis)``): ``gl.gather``, whose result takes the index's layout, then
    the result's."""
    res = _res(op)
    ctx.define(res, py_name(res))
    src, idx = (ctx.tensor(v) for v in op.operands[:2])
    return [f"{py_name(res)} = gl.convert_layout(gl.gather({src}, {idx}, {_int_attr(op, 'axis')}), "
            f"{ctx.layout(ctx.ttype(res).layout)})"]


def histogram(op: IROp, ctx: Context) -> list[str]:
    """``tt.histogram`` (``tl.histogram(x, num_bins, mask=...)``): ``gl.histogram`` into the result's layout, its bins
    the result's length; a masked-off element is not counted, as in Triton."""
    res = _res(op)
    ctx.define(res, py_name(res))
    t = ctx.ttype(res)
    args = [ctx.tensor(op.operands[0]), str(t.shape[0])]
    if len(op.operands) > 1:
        args.append(f"mask={ctx.tensor(op.operands[1])}")
    return [f"{py_name(res)} = gl.histogram({', '.join(args)}, layout={ctx.layout(t.layout)})"]


def _mlir_string(text: str) -> str:
    """An MLIR string literal's text (``\\XX`` hex escapes, as MLIR prints a newline, a quote or a backslash)."""
    return re.sub(r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), text)


def inline_asm(op: IROp, ctx: Context) -> list[str]:
    """``tt.elementwise_inline_asm`` (``tl.inline_asm_elementwise``: the kernel's own PTX on packed elements):
    ``gl.inline_asm_elementwise`` with its assembly, constraints, purity and packing, each result then in its
    layout."""
    m = re.search(r'elementwise_inline_asm\s+"((?:[^"\\]|\\.)*)"', op.text)
    cons = re.search(r'constraints\s*=\s*"((?:[^"\\]|\\.)*)"', op.text)
    if m is None or cons is None:
        raise UnsupportedError("inline assembly the Gluon back end cannot read", where=source_where(op),
                               found=op.text.strip()[:80])
    pack = re.search(r"packed_element\s*=\s*(\d+)", op.text)
    pure = re.search(r"pure\s*=\s*(true|false)", op.text)
    dtypes = [gl_dtype(ctx.ttype(r).dtype) for r in op.results]
    for r in op.results:
        ctx.define(r, py_name(r))
    dtype = f"({', '.join(dtypes)},)"      # a sequence: the results come back as a tuple, one or several
    call = (f"gl.inline_asm_elementwise({_mlir_string(m.group(1))!r}, {_mlir_string(cons.group(1))!r}, "
            f"[{', '.join(ctx.tensor(v) for v in op.operands)}], dtype={dtype}, "
            f"is_pure={pure is not None and pure.group(1) == 'true'}, pack={int(pack.group(1)) if pack else 1})")
    # each result indexed out of the tuple (not unpacked: the barrier protocol's simulation runs this source)
    return [f"{py_name(op.results[0])}_asm = {call}"] + [
        f"{py_name(r)} = gl.convert_layout({py_name(op.results[0])}_asm[{k}], {ctx.layout(ctx.ttype(r).layout)})"
        for k, r in enumerate(op.results)]


def trans(op: IROp, ctx: Context) -> list[str]:
    """``tt.trans``: ``gl.permute``, whose layout Gluon infers from the operand's. Of a blocked tile that is the
    permuted blocked layout Triton wrote; of another (a linear layout: ``tl.dot_scaled``'s scales on Hopper) Triton
    may print an equivalent one Gluon does not infer (a slice), so the result is converted to it."""
    res, src = _res(op), op.operands[0]
    order = tuple(_order(op))
    ctx.define(res, py_name(res))
    x = f"gl.permute({ctx.tensor(src)}, {order})"
    lay, want = ctx.ttype(src).layout, ctx.ttype(res).layout
    if (not isinstance(lay, Blocked) or _permuted(lay, order) != want) and not (
            isinstance(want, Linear) and want.warps != ctx.warps):
        x = f"gl.convert_layout({x}, {ctx.layout(want)})"
    # a linear layout Triton printed for the kernel's warps cannot be re-derived for a partition of fewer (the FA
    # backward's dS^T, a wgmma accumulator transposed for dQ): the permuted layout Gluon infers stands, and the
    # reader converts it to the layout it needs (a dot operand's)
    return [f"{py_name(res)} = {x}"]


def _permuted(lay: Blocked, order: tuple[int, ...]) -> Blocked:
    """``lay`` with its dimensions permuted as ``tt.trans`` permutes the tile's (result dim i is operand dim
    ``order[i]``)."""
    inverse = [order.index(d) for d in range(len(order))]
    return Blocked(tuple(lay.size_per_thread[d] for d in order), tuple(lay.threads_per_warp[d] for d in order),
                   tuple(lay.warps_per_cta[d] for d in order), tuple(inverse[d] for d in lay.order))


_COMBINE = {"gl.max": "gl.maximum({a}, {b})", "gl.min": "gl.minimum({a}, {b})", "gl.sum": "{a} + {b}"}
TREE_WIDTH = 8      # a wgmma accumulator's row: 8-column groups in each thread's registers, 2 x 4 lanes within


def reduce(op: IROp, ctx: Context) -> list[str]:
    """A reduction. With ``ctx.tree_reductions`` (opt-in), one along the rows of a wgmma accumulator
    (``tree_levels``) is written as a tree over the registers each thread holds: Triton reduces a thread's
    values one after another (a chain of 31 dependent FMNMX / FADD per 64-row, 128-column row, in the FA
    forward's SASS), so the row is halved level by level first (reshape, permute, split: register renaming,
    no data moves) and the last 8 columns go to ``gl.max``/``gl.sum`` (one in-thread step, then the lanes'
    shuffles). Measured on the H200 (run 11) the FA forward so written ran 3-5 % slower than with the
    chains: the chain's latency is hidden by the other consumer's warp on the same sub-partition, the tree's
    burst of independent ops is not, so it stays off by default."""
    res = _res(op)
    comb = re.findall(r"arith\.(\w+)", op.full_text)
    fn = _REDUCE.get(comb[0]) if len(comb) == 1 and len(op.results) == 1 else None
    if fn is None:                # several operands (an argmax's value and index) or a combiner of several ops
        return _combined(op, ctx)
    ctx.define(res, py_name(res))
    axis, src = _int_attr(op, "axis"), op.operands[0]
    x, out = ctx.tensor(src), []
    m = re.search(r"\^bb0\(%[\w$.\-]+:\s*i(\d+)\b", op.full_text)     # the combiner's own type, not the value's
    bits = m.group(1) if m else "1"                                        # (a select's reads as its condition's)
    if comb[0] in ("maxui", "minui") and bits != "1":    # tl.max of unsigned (tl.topk's keys): read as unsigned
        return [f"{py_name(res)} = gl.cast({fn}(gl.cast({x}, gl.uint{bits}, bitcast=True), axis={axis}), "
                f"gl.int{bits}, bitcast=True)"]
    levels = tree_levels(ctx, src, axis) if ctx.tree_reductions else 0
    rows, width = ctx.shape(src)[0], ctx.shape(src)[-1]
    for level in range(levels):
        name = f"{py_name(res)}_h{level}"
        out.append(f"{name}a, {name}b = {x}.reshape([{rows}, 2, {width // 2}]).permute((0, 2, 1)).split()")
        out.append(f"{name} = " + _COMBINE[fn].format(a=f"{name}a", b=f"{name}b"))
        x, width = name, width // 2
    if not levels:
        return [f"{py_name(res)} = {fn}({x}, axis={axis})"]
    ctx.trees.append(f"{py_name(res)}: {fn} over {ctx.shape(src)[-1]} columns, {levels} levels")
    # the tree's result has a linear layout equal to the slice of the accumulator's: renamed, not moved
    return out + [f"{py_name(res)} = gl.convert_layout({fn}({x}, axis={axis}), {ctx.layout(ctx.ttype(res).layout)})"]


_COMBINERS: dict[str, list[str]] = {}      # the module functions reductions' own combiners were written as, by name


def _literal(ctx: Context, v: str) -> str | None:
    """A constant MLIR hoisted out of a combiner's region (``tl.where``'s 0.0) as its literal; None for another value."""
    val = ctx.vals.get(v)
    return val.expr if val is not None and re.fullmatch(r"\(?-?[\d.e+\-]+\)?|True|False", val.expr) else None


def _combined(op: IROp, ctx: Context) -> list[str]:
    """A reduction with its own combiner (``tl.max(x, 0, return_indices=True)``: a value and an index with a tie
    rule; a Welford triple; any function of scalars): ``gl.reduce`` of its operands with the combiner written as a
    Gluon function of the module (``combiner``), named by its text."""
    name, lines = combiner(op, lambda v: _literal(ctx, v))
    _COMBINERS[name] = lines
    for r in op.results:
        ctx.define(r, py_name(r))
    inputs = op.operands[:len(op.results)]       # one per result; the rest are what the combiner reads from outside
    call = (f"gl.reduce(({', '.join(ctx.tensor(v) for v in inputs)}{',' if len(inputs) == 1 else ''}), "
            f"{_int_attr(op, 'axis')}, {name})")
    return [f"{', '.join(py_name(r) for r in op.results)}{',' if len(op.results) == 1 else ''} = {call}"]


def combiner(op: IROp, literal: Callable[[str], str | None]) -> tuple[str, list[str]]:
    """The region of reduction or scan ``op`` (its block's arguments, scalar arith and math ops, its return) as a
    ``@gluon.jit`` function: its name (from a hash of the region's text) and its lines; a value from outside the
    region is the literal ``literal`` gives it. An op or a value it cannot read is refused in one line naming it."""
    lines = op.full_text.splitlines()
    head = next((ln for ln in lines if ln.strip().startswith("^bb0(")), None)
    if head is None:
        raise UnsupportedError("a reduction or scan whose combiner the Gluon back end cannot read", where=source_where(op),
                               found=op.text[:80])
    params = re.findall(r"(%[\w$.\-]+)\s*:", head.split("(", 1)[1])
    names = {p: f"a{k}" for k, p in enumerate(params)}
    body: list[str] = []
    for ln in lines[lines.index(head) + 1:]:
        text = re.sub(r"\s+loc\(.*\)\s*$", "", ln.strip())
        if text.startswith(("tt.reduce.return", "tt.scan.return")):
            rets = re.findall(r"%[\w$.\-#]+", text.split(":", 1)[0])
            body.append("return " + ", ".join(names[v] for v in rets))
            break
        m = re.match(r"(%[\w$.\-]+)\s*=\s*([\w.]+)\s+(.*)$", text)
        expr = _scalar_expr(m.group(2), m.group(3)) if m else None
        if expr is None:
            raise UnsupportedError("a reduction or scan whose combiner the Gluon back end cannot write", where=source_where(op),
                                   expected="scalar arith and math ops", found=text[:80])
        outer = {v: literal(v) for v in re.findall(r"%[\w$.\-]+", expr) if v not in names}
        outer = {v: x if x is None else f"gl.to_tensor({x})" for v, x in outer.items()}   # Gluon's where takes tensors
        if None in outer.values():
            raise UnsupportedError("a reduction or scan whose combiner reads a value the Gluon back end cannot inline",
                                   where=source_where(op), expected="block arguments and constants",
                                   found=next(v for v, x in outer.items() if x is None))
        names[m.group(1)] = f"t{len(body)}"
        body.append(f"t{len(body)} = " + re.sub(r"%[\w$.\-]+", lambda v: names.get(v.group(0)) or outer[v.group(0)],
                                                 expr))
    name = "twill_combine_" + hashlib.sha1("\n".join(body).encode()).hexdigest()[:8]
    return name, ["@gluon.jit", f"def {name}({', '.join(names[p] for p in params)}):"] + ["    " + b for b in body] + [""]


def _scalar_expr(name: str, rest: str) -> str | None:
    """Python for one scalar op of a combiner (its operands left as SSA names), or None."""
    args = [a.strip() for a in rest.split(":", 1)[0].split(",")]
    ty = rest.split(":", 1)[1].strip() if ":" in rest else ""
    if (name == "arith.cmpi" and args[0] in ("ult", "ule", "ugt", "uge")) or name in ("arith.maxui", "arith.minui"):
        if not re.fullmatch(r"i\d+", ty):
            return None
        if ty == "i1":        # a boolean (tl.argmax of a mask: Triton-distributed's row index): 0 / 1 as int32
            if name != "arith.cmpi":
                return f"{args[0]} {'|' if name == 'arith.maxui' else '&'} {args[1]}"
            return f"gl.cast({args[1]}, gl.int32) {_CMP[args[0]]} gl.cast({args[2]}, gl.int32)"
        u = [f"gl.cast({a}, gl.uint{ty[1:]}, bitcast=True)" for a in args[-2:]]   # read as unsigned
        if name == "arith.cmpi":
            return f"{u[0]} {_CMP[args[0]]} {u[1]}"
        return f"gl.cast({_UNSIGNED_CALL[name]}({u[0]}, {u[1]}), gl.int{ty[1:]}, bitcast=True)"
    if name in ("arith.cmpf", "arith.cmpi"):
        return f"{args[1]} {_CMP[args[0]]} {args[2]}" if args[0] in _CMP else None
    if name in _BINARY and len(args) == 2:
        return f"{args[0]} {_BINARY[name]} {args[1]}"
    if name in _CALL2:
        return f"{_CALL2[name]}({args[0]}, {args[1]}{_CALL2_KW.get(name, '')})"
    if name in _UNARY:
        return f"{_UNARY[name]}({args[0]})"
    if name == "arith.select" and len(args) == 3:
        return f"gl.where({args[0]}, {args[1]}, {args[2]})"
    if name == "arith.constant":     # a scalar tensor, as Gluon's where and maximum take
        v = args[0] if re.fullmatch(r"-?\d[\d.e+\-]*", args[0]) else {"true": "True", "false": "False"}.get(args[0])
        return f"gl.to_tensor({v})" if v is not None else None
    return None


# a scan's combiner (``tl.cumsum``, ``tl.cumprod``, ``tl.cummax``: ``tt.scan`` with one arith op) -> the module's
# Gluon function that combines two values (a reduction's combiners, and a product)
_SCAN_NAMES = {"gl.sum": "twill_add", "gl.max": "twill_max", "gl.min": "twill_min"}


def _scan_combiner(kind: str) -> tuple[str, str] | None:
    """(function name, its return expression) for the arith op ``kind``; None for another."""
    if kind in ("mulf", "muli"):
        return "twill_mul", "a * b"
    if kind in ("maxui", "minui"):       # unsigned: the scan's region written with its operands read as unsigned
        return None
    fn = _REDUCE.get(kind)
    return (_SCAN_NAMES[fn], _COMBINE[fn].format(a="a", b="b")) if fn is not None else None


def scan(op: IROp, ctx: Context) -> list[str]:
    """A scan (``tl.cumsum`` and its kin) along an axis: ``gl.associative_scan`` with the module's combiner
    (``scan_functions`` writes it); one of several tensors or with a combiner of several ops
    (``tl.associative_scan((a, b), axis, fn)``) with the region written as a Gluon function (``combiner``)."""
    res = _res(op)
    comb = re.findall(r"arith\.(\w+)", op.full_text)
    fn = _scan_combiner(comb[0]) if len(comb) == 1 and len(op.results) == 1 else None
    reverse = ", reverse=True" if re.search(r"reverse\s*=\s*true", op.text) else ""
    if fn is None:     # a combiner of several ops or tensors (a linear recurrence's (a, b) pairs): the region itself
        name, lines = combiner(op, lambda v: _literal(ctx, v))
        _COMBINERS[name] = lines
        for r in op.results:
            ctx.define(r, py_name(r))
        inputs = op.operands[:len(op.results)]
        call = (f"gl.associative_scan(({', '.join(ctx.tensor(v) for v in inputs)}{',' if len(inputs) == 1 else ''}), "
                f"{_int_attr(op, 'axis')}, {name}{reverse})")
        return [f"{', '.join(py_name(r) for r in op.results)}{',' if len(op.results) == 1 else ''} = {call}"]
    ctx.define(res, py_name(res))
    return [f"{py_name(res)} = gl.associative_scan({ctx.tensor(op.operands[0])}, {_int_attr(op, 'axis')}, {fn[0]}{reverse})"]


def scan_functions(source: str) -> list[str]:
    """The combiners ``source``'s scans and reductions call, as Gluon functions of the module."""
    out = []
    for name, expr in sorted({c for k in list(_REDUCE) + ["mulf"] for c in [_scan_combiner(k)] if c}):
        if re.search(rf"\b{name}\b", source):
            out += ["@gluon.jit", f"def {name}(a, b):", f"    return {expr}", ""]
    for name in sorted(set(re.findall(r"\btwill_combine_[0-9a-f]{8}\b", source))):
        out += _COMBINERS[name]
    return out


def tree_levels(ctx: Context, v: str, axis: int) -> int:
    """How many times a reduction of ``v`` along ``axis`` can halve its columns inside each thread's
    registers: a 2-D wgmma (v3) accumulator whose columns are all in one warp (warps only along the rows),
    reduced along its columns: the columns above ``TREE_WIDTH`` are register bits. 0 otherwise."""
    t = ctx.ttype(v)
    shape = ctx.shape(v, t)
    lay = ctx.rewarped(t.layout) if t.kind == "tensor" and t.layout is not None else None
    if not isinstance(lay, Mma) or lay.version[0] != 3 or len(shape) != 2 or axis != 1:
        return 0
    if lay.warps_per_cta[1] != 1 or shape[1] & (shape[1] - 1) or shape[1] <= TREE_WIDTH:
        return 0
    return (shape[1] // TREE_WIDTH).bit_length() - 1


def program_axis(op: IROp) -> int:
    """The launch grid axis a ``tt.get_program_id`` reads (0: x)."""
    return "xyz".index(re.search(r"get_program_id\s+(\w)", op.text).group(1))


def program_id(op: IROp, ctx: Context) -> list[str]:
    axis = program_axis(op)
    ctx.define(_res(op), py_name(_res(op)))
    return [f"{py_name(_res(op))} = " + (f"twill_pid{axis}" if ctx.persistent else f"gl.program_id({axis})")]


def num_programs(op: IROp, ctx: Context) -> list[str]:
    axis = "xyz".index(re.search(r"get_num_programs\s+(\w)", op.text).group(1))
    ctx.define(_res(op), py_name(_res(op)))
    return [f"{py_name(_res(op))} = " + (f"twill_g{axis}" if ctx.persistent else f"gl.num_programs({axis})")]


def pointer_load(op: IROp, ctx: Context) -> list[str]:
    res = _res(op)
    kw = mask_keyword(op, ctx, 1)
    if len(op.operands) > 2:
        kw += f", other={ctx.scalar_or_tensor(op.operands[2])}"
    args = [ctx.tensor(op.operands[0])]
    ctx.define(res, py_name(res))
    return [f"{py_name(res)} = gl.load({args[0]}{kw}{memory_hints(op)})"]


_CACHE = {"ca": ".ca", "cg": ".cg", "cs": ".cs", "cv": ".cv", "wb": ".wb", "wt": ".wt"}


def memory_hints(op: IROp, copy: bool = False) -> str:
    """The keywords of a load's or store's cache modifier, eviction policy and volatility as the kernel wrote them
    (``tl.load(p, cache_modifier=".cg", eviction_policy="evict_last", volatile=True)``: TTGIR prints
    ``cacheModifier = cg evictionPolicy = evict_last``, ``{isVolatile = true}``); for a ``copy`` (cp.async) those it
    takes: ``.ca`` / ``.cg`` and the eviction policy."""
    attrs = op.text.split(" : ", 1)[0]
    out = ""
    m = re.search(r"cacheModifier = (\w+)", attrs)
    cache = _CACHE.get(m.group(1)) if m else None
    if cache and (not copy or cache in (".ca", ".cg")):
        out += f", cache_modifier={cache!r}"
    m = re.search(r"evictionPolicy = (evict_first|evict_last)", attrs)
    if m and not (cache in (".ca", ".cg") and op.name == "tt.load"):   # ptxas: "Modifier '.evict_first' cannot be
        out += f", eviction_policy={m.group(1)!r}"              # combined with modifier '.cg'": the cache level kept
    if not copy and re.search(r"isVolatile = true", attrs):
        out += ", volatile=True"
    return out


def tile_copies(buf: str, ptrs: str, mask: str, other: str, op: IROp) -> tuple[str, str]:
    """Pointer load ``op``'s tile into shared buffer ``buf`` two ways: with cp.async, and through registers (a load
    and a store, where the launch cannot use cp.async), each with the load's own hints (``memory_hints``)."""
    return (f"async_copy.async_copy_global_to_shared({buf}, {ptrs}{mask}{memory_hints(op, copy=True)})",
            f"{buf}.store(gl.load({ptrs}{mask}{other}{memory_hints(op)}))")


def mask_keyword(op: IROp, ctx: Context, index: int) -> str:
    """``, mask=...`` for an optional mask operand; none for an all-true constant mask."""
    if len(op.operands) <= index:
        return ""
    m = ctx.get(op.operands[index])
    if m.expr == "True":          # a splat of true, or a scalar op's i1 constant
        return ""
    return f", mask={ctx.tensor(op.operands[index], like=op.operands[0])}"


def pointer_store(op: IROp, ctx: Context) -> list[str]:
    ptr, val = ctx.tensor(op.operands[0]), ctx.tensor(op.operands[1], like=op.operands[0])
    return [f"gl.store({ptr}, {val}{mask_keyword(op, ctx, 2)}{memory_hints(op)})"]


def atomic(op: IROp, ctx: Context) -> list[str]:
    m = re.search(r"tt\.atomic_rmw\s+(\w+),\s*(\w+),\s*(\w+)", op.text)
    kind, sem, scope = m.groups() if m else ("fadd", "acq_rel", "gpu")
    fn = {"fadd": "gl.atomic_add", "add": "gl.atomic_add", "max": "gl.atomic_max", "min": "gl.atomic_min",
          "umax": "gl.atomic_max", "umin": "gl.atomic_min", "and": "gl.atomic_and", "or": "gl.atomic_or",
          "xor": "gl.atomic_xor", "exch": "gl.atomic_xchg"}.get(kind)
    if fn is None:
        raise UnsupportedError(f"atomic {kind} is not in the Gluon back end's vocabulary", where=source_where(op))
    ptr, val = ctx.tensor(op.operands[0]), ctx.tensor(op.operands[1], like=op.operands[0])
    back = ""
    if kind in ("umax", "umin"):     # unsigned (a float tl.atomic_max's negative half): on the buffer read as unsigned
        dtype = ctx.ttype(op.operands[1]).dtype
        ptr = f"gl.cast({ptr}, gl.pointer_type(gl.uint{dtype[1:]}), bitcast=True)"
        val = _unsigned(Val(val, ctx.ttype(op.operands[1])), dtype)
        back = gl_dtype(dtype)
    line = f"{fn}({ptr}, {val}{mask_keyword(op, ctx, 2)}, sem={sem!r}, scope={scope!r})"
    if back:
        line = f"gl.cast({line}, {back}, bitcast=True)"
    if op.results:
        ctx.define(op.results[0], py_name(op.results[0]))
        return [f"{py_name(op.results[0])} = {line}"]
    return [line]


def atomic_cas(op: IROp, ctx: Context) -> list[str]:
    """``tl.atomic_cas(ptr, cmp, val)``: a lock's acquire (tutorial 05's layer-norm backward), a flag's hand-over."""
    m = re.search(r"tt\.atomic_cas\s+(\w+),\s*(\w+)", op.text)
    sem, scope = m.groups() if m else ("acq_rel", "gpu")
    ptr = ctx.tensor(op.operands[0])
    cmp, val = (ctx.tensor(v, like=op.operands[0]) for v in op.operands[1:3])
    ctx.define(op.results[0], py_name(op.results[0]))
    return [f"{py_name(op.results[0])} = gl.atomic_cas({ptr}, {cmp}, {val}, sem={sem!r}, scope={scope!r})"]


def local_load(op: IROp, ctx: Context) -> list[str]:
    res = _res(op)
    ctx.define(res, py_name(res))
    return [f"{py_name(res)} = {ctx.get(op.operands[0]).expr}.load({ctx.layout(ctx.ttype(res).layout)})"]


def local_alloc(op: IROp, ctx: Context) -> list[str]:
    """A register tile put in shared memory outside the scheduled loop (a query tile loaded through pointers
    before the loop, which the loop's dots read from shared memory): allocated with its value, then fenced for the
    tensor core's reads (the async proxy)."""
    if not op.operands:
        raise UnsupportedError("a shared buffer allocated without a value outside the loop", where=source_where(op),
                               expected="ttg.local_alloc of a register tile", found=op.text.strip()[:80])
    res, src = _res(op), op.operands[0]
    t = ctx.ttype(res)
    ctx.define(res, py_name(res))
    shared = t.layout.spell() if t.layout is not None else ""
    return [f"{py_name(res)} = gl.allocate_shared_memory({gl_dtype(t.dtype)}, {list(ctx.shape(src))}, {shared}, "
            f"{ctx.tensor(src)})", "fence_async_shared()"]


def memdesc_trans(op: IROp, ctx: Context) -> list[str]:
    ctx.define(_res(op), f"{ctx.get(op.operands[0]).expr}.permute({tuple(_order(op))})")
    return []


def memdesc_index(op: IROp, ctx: Context) -> list[str]:
    ctx.define(_res(op), f"{ctx.get(op.operands[0]).expr}.index({ctx.get(op.operands[1]).expr})")
    return []


def nothing(op: IROp, ctx: Context) -> list[str]:
    return []


def barrier(op: IROp, ctx: Context) -> list[str]:
    """``tl.debug_barrier()``: every thread of the partition (the kernel's, where it has one) waits for the others and
    their memory operations, as Triton's ``gpu.barrier``; the schedule keeps the ops around it in their order (the
    graph's memory edges through it)."""
    return ["gl.thread_barrier()"]


def make_descriptor(op: IROp, ctx: Context) -> list[str]:
    """``tl.make_tensor_descriptor(base, shape, strides, block_shape)`` from a base the kernel computes
    (``descriptors.device_made``): made in the partition that reads it, its block cut along the rows where they are
    split, as a launch-made descriptor's is. Triton's own kernel makes it on the device too (global scratch, set by
    ``triton.set_allocator``)."""
    res = _res(op)
    t = ctx.ttype(res)
    m = re.match(r"\s*%[\w$.\-]+\s*=\s*tt\.make_tensor_descriptor\s+(%[\w$.\-]+),\s*\[([^\]]*)\],\s*\[([^\]]*)\]",
                 op.text)
    if m is None or not isinstance(t.layout, NvmmaShared):
        raise UnsupportedError("a tensor descriptor the Gluon back end cannot read", where=source_where(op),
                               found=op.text.strip().split(" : ")[0])
    shape, strides = ([ctx.get(v.strip()).expr for v in m.group(g).split(",")] for g in (2, 3))
    block = list(t.shape)
    if ctx.rows is not None and res in ctx.rows.descriptors:
        block[ctx.rows.descriptors[res]] //= ctx.subtiles
    lay = t.layout
    ctx.define(res, py_name(res))
    return [f"{py_name(res)} = tma.make_tensor_descriptor({ctx.get(m.group(1)).expr}, [{', '.join(shape)}], "
            f"[{', '.join(strides)}], {block}, gl.NVMMASharedLayout(swizzle_byte_width={lay.swizzle}, "
            f"element_bitwidth={lay.bits}, rank={len(block)}, transposed={lay.transposed}))"]


GENERIC: dict[str, Callable[[IROp, Context], list[str]]] = {
    "tt.make_tensor_descriptor": make_descriptor,
    "arith.constant": constant, "tt.splat": splat, "tt.make_range": make_range, "tt.expand_dims": expand_dims,
    "tt.broadcast": broadcast, "ttg.convert_layout": convert_layout, "tt.trans": trans, "tt.reduce": reduce,
    "tt.dot": dot, "ttng.warp_group_dot": wgmma, "tt.reshape": reshape, "tt.join": join, "tt.split": split,
    "tt.cat": cat,
    "ttg.fp4_to_fp": fp4_to_fp,
    "tt.scan": scan, "tt.gather": gather, "tt.histogram": histogram, "tt.elementwise_inline_asm": inline_asm,
    "tt.get_program_id": program_id, "tt.get_num_programs": num_programs, "tt.load": pointer_load,
    "tt.store": pointer_store, "tt.atomic_rmw": atomic, "tt.atomic_cas": atomic_cas, "ttg.local_load": local_load,
    "ttg.memdesc_trans": memdesc_trans, "ttg.memdesc_index": memdesc_index, "tt.return": nothing,
    "ttg.local_alloc": local_alloc, "gpu.barrier": barrier,
    "ttg.barrier": barrier,        # tl.debug_barrier as Triton 3.9 prints it
}


# the kernel's ``tl.multiple_of`` / ``tl.max_contiguous`` / ``tl.max_constancy``, attributes of the op they name in TTGIR
HINTS = (("tt.divisibility", "multiple_of"), ("tt.contiguity", "max_contiguous"), ("tt.constancy", "max_constancy"))


def translate(op: IROp, ctx: Context) -> list[str]:
    """Source lines for ``op`` (results defined in ``ctx``); UnsupportedError for an op outside the vocabulary.
    The kernel's hints on a tensor result are kept: without them the analysis that sizes a load's or a copy's
    vectors loses what the kernel stated (a ``tl.where``-clamped offset is no longer contiguous, and a cp.async
    of it would move 2 bytes, which Triton's lowering refuses)."""
    lines = _translate(op, ctx)
    if not any(attr in op.attrs for attr, _ in HINTS) or len(op.results) != 1 or op.results[0] not in ctx.vals:
        return lines
    r = op.results[0]
    val = ctx.vals[r]
    if val.broadcast or val.type.kind != "tensor":
        return lines
    ctx.vals[r] = Val(py_name(r), val.type)
    return lines + [f"{py_name(r)} = {hinted(val.expr, op.attrs, len(val.type.shape))}"]


def hinted(expr: str, attrs: dict[str, str], rank: int) -> str:
    """``expr`` under the hints ``attrs`` holds (``tt.divisibility = dense<16> : tensor<2xi32>``, ...), one value per
    dimension of a rank-``rank`` tensor (a splat value repeated)."""
    for attr, fn in HINTS:
        m = re.fullmatch(r"dense<\[?([\d, ]+)\]?>.*", attrs.get(attr, "").strip())
        if m:
            nums = [v.strip() for v in m.group(1).split(",")]
            expr = f"gl.{fn}({expr}, [{', '.join(nums * rank if len(nums) == 1 else nums)}])"
    return expr


LIBDEVICE_IMPORT = "from triton.experimental.gluon.language.extra import libdevice\n"
MMA_V2_IMPORT = "from triton.experimental.gluon.language.nvidia.ampere import mma_v2\n"
# tl.maximum(..., propagate_nan=tl.PropagateNan.ALL) (arith.maximumf): Gluon 3.6's language has no PropagateNan of its
# own; gl.maximum takes Triton's, read through the module (a jit function reads no other global that is not constexpr)
NAN_IMPORT = "import triton.language as tl\n"


@functools.lru_cache(maxsize=1)
def _libdevice_names() -> dict[str, str]:
    """Each libdevice symbol (``__nv_tanhf``) -> the function of Triton's ``libdevice`` module that calls it
    (``tanh``), read from that module's source (it maps argument types to symbols function by function)."""
    import triton.language.extra.cuda.libdevice as lib
    text = Path(lib.__file__).read_text()
    out: dict[str, str] = {}
    for block in re.split(r"\n@core\.extern\n", text)[1:]:
        name = re.match(r"def (\w+)\(", block)
        for sym in re.findall(r'\("(__nv_\w+)"', block) if name else ():
            out.setdefault(sym, name.group(1))
    return out


def _libdevice(op: IROp) -> str:
    m = re.search(r'symbol\s*=\s*"([\w$.]+)"', op.text)
    libname = re.search(r'libname\s*=\s*"([^"]*)"', op.text)
    name = _libdevice_names().get(m.group(1)) if m and not (libname and libname.group(1)) else None
    if name is None:
        raise UnsupportedError("an external function the Gluon back end cannot call", where=source_where(op),
                               expected="a function of Triton's libdevice", found=m.group(1) if m else op.text[:80])
    return name


def _translate(op: IROp, ctx: Context) -> list[str]:
    fn = GENERIC.get(op.name)
    if fn is not None:
        return fn(op, ctx)
    if op.name.startswith(("arith.", "math.")) or op.name in ("tt.addptr", "tt.clampf", "tt.bitcast", "tt.fp_to_fp",
                                                             "tt.int_to_ptr", "tt.ptr_to_int", "tt.mulhiui",
                                                             "tt.precise_sqrt", "tt.precise_divf", "tt.approx_divf",
                                                             "tt.extern_elementwise"):
        return elementwise(op, ctx)
    if op.name == "ttg.local_alloc" and op.operands:
        raise UnsupportedError("a dot operand put in shared memory from registers (ttg.local_alloc), as one loaded with "
                               "tl.load through pointers is", where=source_where(op),
                               expected="dot operands loaded through a tensor descriptor (tl.make_tensor_descriptor or "
                               "a host TensorDescriptor), which the Gluon back end loads by TMA into the producer's rings",
                               found=f"{op.name} of a register tensor")
    raise UnsupportedError(f"{op.name} is not in the Gluon back end's vocabulary", where=source_where(op),
                           expected="loads, dots, reductions, elementwise math, conversions, stores")


def source_where(op: IROp) -> str:
    """Where ``op`` comes from, for a message: the kernel's source file and line, and its TTGIR line."""
    if op.loc.line is None:
        return f"TTGIR line {op.lineno}"
    src = op.loc.text() if op.loc.file else f"source line {op.loc.line}"
    return f"{src} (TTGIR line {op.lineno})"
