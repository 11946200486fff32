"""SSA values of the TTGIR function as Python names and expressions of the generated Gluon source, in
the context of one partition: its warps, and the row sub-tile it computes.

A constant or splat is not materialised where TTGIR defines it: Gluon broadcasts a scalar against a
tensor in an elementwise op, so it stays a scalar expression there, and becomes a ``gl.full`` only
where a tensor is required (a dot's accumulator, a loop's initial value), with the shape and layout
of that use. This keeps loop-invariant tiles out of the registers across the loop.
"""
from __future__ import annotations

import dataclasses
import keyword
import math
import re
import struct
from dataclasses import dataclass, field

from codegen.gluon.layouts import (Blocked, DotOperand, Layout, Linear, Mma, Slice, TensorType, gl_dtype,
                                   parse_type)
from twill.errors import UnsupportedError
from twill.ir.dims import RowSplit
from twill.ir.function import Function
from twill.ir.ttgir import IROp

_RESERVED = {"gl", "gluon", "tma", "mbarrier", "triton", "math", "fence_async_shared", "warpgroup_mma",
             "warpgroup_mma_wait", "range", "float", "int", "len", "min", "max", "abs"}


def py_name(ssa: str) -> str:
    """A Python identifier for an SSA value: ``%qk_31`` -> ``qk_31``, ``%0`` -> ``v0``, ``%dv#1`` -> ``dv_r1``."""
    s = ssa.lstrip("%").replace("#", "_r")
    s = re.sub(r"\W", "_", s)
    if not s or s[0].isdigit():
        s = "v" + s
    elif re.fullmatch(r"v\d+(_r\d+)?", s):   # a kernel's own ``v0``: not the name of the unnamed ``%0``
        s += "_u"
    if keyword.iskeyword(s) or s in _RESERVED or s.startswith(("twill_", "tok_", "L")) and s[1:].isdigit() is False \
            and s.startswith(("twill_", "tok_")):
        s += "_"
    if re.fullmatch(r"L\d+", s):          # the module's layout constants
        s += "_"
    return s


def float_literal(text: str, dtype: str) -> str:
    """A TTGIR float constant as Python source (hex bit patterns included)."""
    text = text.strip()
    if text.startswith("0x"):
        bits = int(text, 16)
        if dtype == "bf16":                   # a bf16's bits are an f32's upper half
            dtype, bits = "f32", bits << 16
        fmt = {"f32": ("<I", "<f"), "f64": ("<Q", "<d"), "f16": ("<H", "<e")}.get(dtype)
        if fmt is None:
            raise UnsupportedError("a float constant the Gluon back end cannot read", found=f"{text} : {dtype}")
        value = struct.unpack(fmt[1], struct.pack(fmt[0], bits))[0]
    else:
        value = float(text)
    if math.isinf(value):
        return 'float("-inf")' if value < 0 else 'float("inf")'
    if math.isnan(value):
        return 'float("nan")'
    return repr(value)


@dataclass
class Val:
    """A value as the generated source has it: an expression, and whether it is a scalar that
    stands for a splat tensor of ``type`` (broadcast where it is used)."""

    expr: str
    type: TensorType
    broadcast: bool = False
    smem: bool = False       # a ring buffer's view standing for a loaded tile: a register reader loads it
    pre: str | None = None   # a broadcast's source as the source has it (``ops.convert_layout`` converts that instead)


@dataclass
class Context:
    """One partition's view of the function: its warps, the sub-tile it computes (None: the whole
    rows), the layouts re-derived for it, and the values defined so far."""

    fn: Function
    table: dict[str, str]
    warps: int
    kernel_warps: int
    rows: RowSplit | None = None
    subtile: int | None = None
    subtiles: int = 1
    persistent: bool = False         # program ids are the tile's (``twill_pid<k>``), the grid the launch's
    tree_reductions: bool = False    # a row reduction halves each thread's registers as a tree (``ops.reduce``)
    trees: list[str] = field(default_factory=list)            # the values so reduced ("name: levels")
    vals: dict[str, Val] = field(default_factory=dict)
    layouts: dict[str, str] = field(default_factory=dict)     # spelled layout -> module constant name
    split_dim_of_base: dict[Layout, int] = field(default_factory=dict)
    relayout: dict[str, Layout] = field(default_factory=dict)   # values laid out otherwise (``compact``)
    substitute: dict[Layout, Layout] = field(default_factory=dict)   # a TTGIR layout replaced (``copy_layout``)
    as_is: dict[str, Layout] = field(default_factory=dict)   # values read in their source's layout (``ops.reshape``)

    # -- types, shapes, layouts ------------------------------------------------------------------
    def ttype(self, v: str) -> TensorType:
        t = parse_type(self.fn.type_of(v), self.table)
        layout = self.relayout.get(v) or self.as_is.get(v)
        return t if layout is None else dataclasses.replace(t, layout=layout)

    def triton_layout(self, v: str) -> str:
        """The module constant of the layout Triton gave ``v`` (its readers' layout, where ``relayout`` moved it)."""
        return self.layout(parse_type(self.fn.type_of(v), self.table).layout)

    def relaid_operands(self, op: IROp) -> list[tuple[str, str, str]]:
        """``op``'s operands held in the compact layout (``codegen.gluon.compact``) that it reads in Triton's layout:
        (operand, the converted value's name, the line converting it). None where ``op`` computes in the compact
        layout itself (a relaid value's addresses, the load)."""
        if not self.relayout or set(op.results) & set(self.relayout):
            return []
        out = []
        for v in dict.fromkeys(op.operands):
            val = self.vals.get(v)
            if v in self.relayout and val is not None and not val.broadcast:
                name = f"{val.expr}_cv"
                out.append((v, name, f"{name} = gl.convert_layout({val.expr}, {self.triton_layout(v)})"))
        return out

    def split_dim(self, v: str) -> int | None:
        if self.rows is None or self.subtile is None or self.subtiles == 1:
            return None
        return self.rows.dims.get(v)

    def shape(self, v: str, t: TensorType | None = None) -> tuple[int, ...]:
        t = t or self.ttype(v)
        dim = self.split_dim(v)
        if dim is None or dim >= len(t.shape):
            return t.shape
        s = list(t.shape)
        s[dim] //= self.subtiles
        return tuple(s)

    def layout(self, layout: Layout | None) -> str:
        """The module constant naming ``layout`` re-derived for this partition's warps."""
        if layout is None:
            raise UnsupportedError("a tensor without a layout", expected="a TTGIR distributed layout")
        re_ = self.rewarped(layout)
        spelled = re_.spell()
        return self.layouts.setdefault(spelled, f"L{len(self.layouts)}")

    def rewarped(self, layout: Layout) -> Layout:
        if self.substitute:
            layout = _substituted(layout, self.substitute)
        if layout.warps == self.warps or isinstance(layout, Linear) and layout.warps == self.warps:
            return layout
        if isinstance(layout, Slice):
            return Slice(layout.dim, self.rewarped(layout.parent))
        if isinstance(layout, DotOperand):
            return DotOperand(layout.index, self.rewarped(layout.parent), layout.k_width)
        if isinstance(layout, (Blocked, Mma)):
            return layout.rewarp(self.warps, self.split_dim_of_base.get(layout, 0))
        return layout.rewarp(self.warps, 0)

    # -- values --------------------------------------------------------------------------------------
    def get(self, v: str) -> Val:
        if v not in self.vals:
            if py_name(v) in self.vals:       # a kernel argument (kept under its Python name), read inside a region
                return self.vals[py_name(v)]
            raise UnsupportedError("the Gluon back end reached a value it has not defined in this partition",
                                   where=self.fn.name, found=v)
        return self.vals[v]

    def scalar_or_tensor(self, v: str) -> str:
        """The value for an elementwise op: a broadcast scalar stays a scalar."""
        return self.get(v).expr

    def tensor(self, v: str, like: str | None = None) -> str:
        """The value as a tensor: a broadcast scalar becomes ``gl.full`` with the shape and layout of
        ``like`` (a value of the same shape; ``v`` itself by default)."""
        val = self.get(v)
        if val.smem:           # a tile in shared memory read in registers (an elementwise op on a TMA-loaded tile)
            return f"{val.expr}.load({self.layout(self.ttype(v).layout)})"
        if not val.broadcast:
            return val.expr
        ref = like or v
        t = self.ttype(ref)
        if t.kind != "tensor":
            return val.expr
        return (f"gl.full({list(self.shape(ref, t))}, {val.expr}, {gl_dtype(val.type.dtype)}, "
                f"layout={self.layout(t.layout)})")

    def define(self, v: str, expr: str, broadcast: bool = False) -> None:
        self.vals[v] = Val(expr, self.ttype(v), broadcast)


def base_split_dims(fn: Function, table: dict[str, str], rows: RowSplit | None) -> dict[Layout, int]:
    """For each base layout (blocked or mma) of the function, the dimension its warps are divided
    along in a partition of fewer warps: the row dimension of the values that use it, else 0. One
    choice per layout keeps every value of that layout consistent (a slice of the accumulator's
    layout and the accumulator divided alike)."""
    out: dict[Layout, int] = {}
    if rows is None:
        return out
    for v, dim in rows.dims.items():
        t = parse_type(fn.types[v], table)
        lay, d = t.layout, dim
        while isinstance(lay, (Slice, DotOperand)):
            if isinstance(lay, Slice):
                d = d if d < lay.dim else d + 1
            lay = lay.parent
        if isinstance(lay, (Blocked, Mma)):
            out.setdefault(lay, d)
    return out


def _substituted(layout: Layout, table: dict[Layout, Layout]) -> Layout:
    """``layout`` with every layout of ``table`` replaced, in it or as a parent of it."""
    if layout in table:
        return table[layout]
    if isinstance(layout, Slice):
        return Slice(layout.dim, _substituted(layout.parent, table))
    if isinstance(layout, DotOperand):
        return DotOperand(layout.index, _substituted(layout.parent, table), layout.k_width)
    return layout


def renamed_def(lines: list[str], old: str, new: str) -> list[str]:
    """``lines`` (one op's) with the definition of ``old`` (``old = ...``, at any indent: inside an ``if`` too) named
    ``new``, and its reads after the definition too (a hinted value, ``x = gl.multiple_of(x, [16])``, reads the line
    before it)."""
    out: list[str] = []
    defined = False
    for ln in lines:
        if defined:
            ln = re.sub(rf"(?<![\w.]){re.escape(old)}(?![\w])", new, ln)
        elif re.match(rf"^\s*{re.escape(old)} =", ln):
            ln = re.sub(rf"^(\s*){re.escape(old)} =", rf"\g<1>{new} =", ln)
            defined = True
        out.append(ln)
    return out
