"""Which rows of a kernel's tile are independent: the dimension analysis behind the row split.

Every tensor dimension of the function is a variable; ops tie them together (an elementwise op ties
its operands' and result's dimensions, a dot ties A's rows to the result's rows and A's columns to
B's rows, a reduction drops one, a transpose permutes). The *row dimension* is the class of the
main loop's dots' result rows. The rows are independent (the tile can be cut into sub-tiles along
them, each computed by its own warps) when nothing mixes rows: no reduction over the row class,
and a dot that contracts over it (a partial sum, e.g. FA backward's dQ = dS^T K) feeds only atomic
additions, which sum the sub-tiles' parts in memory.

The split keeps the program: each sub-tile runs the same ops on row-sliced tensors; a ``make_range``
over the rows starts at the sub-tile's first row, a TMA block along the rows shrinks (and its
coordinate moves), and everything else is unchanged.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from twill.ir import vocab
from twill.ir.function import Function
from twill.ir.ttgir import IROp, type_info

_ELEMENTWISE_PREFIX = ("arith.", "math.")
_ELEMENTWISE = {"tt.addptr", "ttg.convert_layout", "tt.clampf", "tt.precise_sqrt", "tt.precise_divf", "tt.approx_divf",
                "tt.fp_to_fp",
                "tt.bitcast", "ttg.local_alloc", "ttg.local_load", "ttg.local_store", "tt.load", "tt.store",
                "tt.atomic_rmw", "tt.atomic_cas", "ttng.tmem_alloc", "ttng.tmem_load", "ttng.tmem_store", "tt.mulhiui",
                "tt.extern_elementwise", "tt.elementwise_inline_asm"}
_OPAQUE = {"tt.reshape", "tt.join", "tt.split", "tt.gather", "tt.histogram", "tt.cat", "tt.scan",
           "ttg.memdesc_reshape", "ttg.memdesc_subslice", "ttg.memdesc_reinterpret"}


@dataclass
class RowSplit:
    """The row class of a function and whether the rows may be split.

    ``rows`` is the row count of the tile; ``dims`` maps each value with a row dimension to its index;
    ``descriptors`` maps each tensor descriptor whose block runs along the rows to that block dim;
    ``ranges`` are the ``make_range`` values over the rows; ``partial`` the values that hold a partial
    sum over the rows (they may only reach atomic additions); ``reasons`` why the rows cannot be
    split (empty when they can).
    """

    rows: int = 0
    dims: dict[str, int] = field(default_factory=dict)
    descriptors: dict[str, int] = field(default_factory=dict)
    ranges: tuple[str, ...] = ()
    partial: frozenset[str] = frozenset()
    reasons: tuple[str, ...] = ()

    @property
    def possible(self) -> bool:
        return not self.reasons and self.rows > 0

    def touches(self, op: IROp) -> bool:
        """Whether ``op`` runs per sub-tile: it defines, reads or stores a row-indexed or partial value."""
        vals = set(op.results) | set(op.operands)
        return bool(vals & (set(self.dims) | set(self.partial))) or \
            (op.name in vocab.TMA_LOADS | vocab.STORES and bool(set(op.operands) & set(self.descriptors)))

    def why_not(self) -> str:
        return "; ".join(self.reasons) if self.reasons else ""


class _Dims:
    """Union-find over (value, dimension) and (descriptor, block dimension) variables."""

    def __init__(self) -> None:
        self.parent: dict[tuple[str, int], tuple[str, int]] = {}

    def find(self, x: tuple[str, int]) -> tuple[str, int]:
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: tuple[str, int], b: tuple[str, int]) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[ra] = rb


def _shape(f: Function, v: str) -> tuple[int, ...]:
    t = f.types.get(v)
    if t is None:
        return ()
    if t.startswith("!tt.tensordesc<tensor<"):
        return type_info("tensor<" + t[len("!tt.tensordesc<tensor<"):]).shape
    info = type_info(t)
    return info.shape if info.space in ("regs", "smem", "tmem") else ()


def _order(op: IROp) -> list[int]:
    m = re.search(r"order = array<i32: ([\d, ]+)>", op.full_text)
    return [int(x) for x in m.group(1).split(",")] if m else [1, 0]


def _int_attr(op: IROp, name: str) -> int | None:
    m = re.search(re.escape(name) + r" = (-?\d+)", op.full_text)
    return int(m.group(1)) if m else None


def free_values(f: Function) -> frozenset[str]:
    """Constants and splats: the same value may feed tensors of unrelated rows (a zero accumulator
    shared by two sub-tiles' dots), so they tie no dimensions; a back end rebuilds them at each use
    with the shape the use needs."""
    out: set[str] = set()

    def walk(ops: list[IROp]) -> None:
        for op in ops:
            if op.name in ("arith.constant", "tt.splat") and op.results:
                out.add(op.results[0])
            for block in ((op.body,) if op.body is not None else ()) + op.regions:
                walk(block.ops)
    walk(f.ops)
    return frozenset(out)


class _Analysis:
    def __init__(self, f: Function) -> None:
        self.f = f
        self.free = free_values(f)
        self.d = _Dims()
        self.reductions: list[tuple[IROp, tuple[str, int]]] = []
        self.contractions: list[tuple[IROp, tuple[str, int]]] = []
        self.desc_uses: list[tuple[IROp, str, str]] = []     # (op, descriptor, value with the block's dims)
        self.opaque: list[IROp] = []
        self.ranges: list[str] = []
        self.dots: list[IROp] = []

    def tie(self, a: str, b: str) -> None:
        if a in self.free or b in self.free:
            return
        sa, sb = _shape(self.f, a), _shape(self.f, b)
        if len(sa) != len(sb):
            return
        for i, (x, y) in enumerate(zip(sa, sb)):
            if x == y:
                self.d.union((a, i), (b, i))

    def walk(self, ops: list[IROp], in_loop: bool) -> None:
        for op in ops:
            self.visit(op, in_loop)

    def visit(self, op: IROp, in_loop: bool) -> None:
        n = op.name
        tensors = [v for v in op.operands + op.results if _shape(self.f, v) and v not in self.free]
        if n == vocab.LOOP and op.body is not None:
            yld = next((o for o in op.body.ops if o.name == vocab.YIELD), None)
            for k, arg in enumerate(op.body.args[1:]):
                for other in (op.body.inits[k] if k < len(op.body.inits) else None,
                              yld.operands[k] if yld and k < len(yld.operands) else None,
                              op.results[k] if k < len(op.results) else None):
                    if other:
                        self.tie(arg, other)
            self.walk(op.body.ops, True)
        elif n == "scf.if":          # each branch's yield is the if's results; what a branch computes ties as written
            for block in op.regions:
                yld = next((o for o in block.ops if o.name == vocab.YIELD), None)
                for r, y in zip(op.results, yld.operands if yld is not None else ()):
                    self.tie(r, y)
                self.walk(block.ops, in_loop)
        elif n in vocab.DOTS:
            self.dot(op, in_loop)
        elif n == vocab.REDUCE:
            src, res = op.operands[0], op.results[0] if op.results else None
            axis = _int_attr(op, "axis") or 0
            if res is not None:
                keep = [i for i in range(len(_shape(self.f, src))) if i != axis]
                for j, i in enumerate(keep):
                    self.d.union((src, i), (res, j))
            self.reductions.append((op, (src, axis)))
        elif n == "tt.expand_dims":
            axis = _int_attr(op, "axis") or 0
            src, res = op.operands[0], op.results[0]
            for i in range(len(_shape(self.f, src))):
                self.d.union((src, i), (res, i if i < axis else i + 1))
        elif n in ("tt.trans", "ttg.memdesc_trans"):
            src, res = op.operands[0], op.results[0]
            for i, j in enumerate(_order(op)):
                self.d.union((res, i), (src, j))
        elif n == "tt.broadcast":
            self.tie(op.operands[0], op.results[0])
        elif n in vocab.TMA_LOADS:
            self.desc_uses.append((op, op.operands[0], op.results[0]))
        elif n in ("tt.descriptor_store", "tt.descriptor_reduce"):
            self.desc_uses.append((op, op.operands[0], op.operands[-1]))
        elif n == "tt.make_range":
            self.ranges.append(op.results[0])
        elif n in _OPAQUE:
            self.opaque.append(op)
        elif n in _ELEMENTWISE or n.startswith(_ELEMENTWISE_PREFIX) or n == "ttng.tmem_store":
            for a, b in zip(tensors, tensors[1:]):
                self.tie(a, b)

    def dot(self, op: IROp, in_loop: bool) -> None:
        a, b, c = op.operands[:3]
        res = op.results[0] if op.results and _shape(self.f, op.results[0]) else c
        self.d.union((a, 0), (res, 0))
        self.d.union((b, 1), (res, 1))
        if res != c and _shape(self.f, c):
            self.tie(c, res)      # a free (constant) accumulator ties nothing
        self.d.union((a, 1), (b, 0))
        self.contractions.append((op, (a, 1)))
        if in_loop:
            self.dots.append(op)


def row_split(f: Function, loop: IROp) -> RowSplit:
    """The rows of the tile the loop's dots compute, and whether they may be split into sub-tiles.

    Examples
    --------
    >>> rs = row_split(read_function(text), module.loops()[0])     # doctest: +SKIP
    >>> rs.possible, rs.rows, rs.descriptors                        # doctest: +SKIP
    (True, 128, {'%desc_q': 0, '%desc_o': 0})
    """
    an = _Analysis(f)
    an.walk(f.ops, False)
    for op, desc, val in an.desc_uses:   # a descriptor's block dims are the loaded / stored tile's
        for i in range(len(_shape(f, val))):
            an.d.union((desc, i), (val, i))
    if not an.dots:
        return RowSplit(reasons=("the loop has no tensor-core op",))
    first = an.dots[0]
    res0 = first.results[0] if first.results and _shape(f, first.results[0]) else first.operands[2]
    cls = an.d.find((res0, 0))
    rows = _shape(f, res0)[0]
    reasons: list[str] = []
    for op in an.dots[1:]:
        r = op.results[0] if op.results and _shape(f, op.results[0]) else op.operands[2]
        if an.d.find((r, 0)) != cls and an.d.find((op.operands[0], 1)) != cls:
            reasons.append(f"the dots' rows differ ({first.results[0] if first.results else '?'} and "
                           f"{op.results[0] if op.results else '?'})")
    dims: dict[str, int] = {}
    for v, shape in ((v, _shape(f, v)) for v in f.types):
        for i, size in enumerate(shape):
            if an.d.find((v, i)) == cls:
                if v in dims:       # one range read by a tile's rows and another's columns, CSE'd (a B read as b.T)
                    reasons.append(f"{v}'s dimensions {dims[v]} and {i} both run along the rows")
                dims[v] = i
                if size != rows:
                    reasons.append(f"{v} has {size} rows along the row dimension, not {rows}")
    partial = _partials(f, an, cls, reasons)
    for op, (src, axis) in an.reductions:
        if an.d.find((src, axis)) == cls and op.results and op.results[0] not in partial:
            reasons.append(f"{op.results[0]} reduces over the rows (line {op.lineno})")
    for op in an.opaque:
        if any(v in dims for v in op.operands + op.results):
            reasons.append(f"{op.name} reshapes a row-indexed value (line {op.lineno})")
    guarded = next((o for o in (loop.body.ops if loop.body is not None else []) if o.name == "scf.if"
                    and any(n.name in vocab.DOTS for n in o.nested())), None)
    if guarded is not None:     # the if is one node, written as it runs (a block-sparse kernel's skipped blocks)
        reasons.append(f"the loop's dots run inside an scf.if (line {guarded.lineno}), which is written whole")
    descs = {d: i for d in {x for _, x, _ in an.desc_uses} for i in range(2) if an.d.find((d, i)) == cls}
    ranges = tuple(r for r in an.ranges if r in dims)
    return RowSplit(rows, dims, descs, ranges, frozenset(partial), tuple(dict.fromkeys(reasons)))


def _partials(f: Function, an: _Analysis, cls: tuple[str, int], reasons: list[str]) -> set[str]:
    """Values holding a partial sum over the rows: results of dots contracting over them, and what is
    computed from those elementwise. Each may reach only an atomic addition (or another partial)."""
    partial: set[str] = set()
    users: dict[str, list[IROp]] = {}

    def index(ops: list[IROp]) -> None:
        for op in ops:
            if op.body is not None:      # a loop's operands are its body's outside uses: index the body
                index(op.body.ops)
                continue
            for v in op.operands:
                users.setdefault(v, []).append(op)
    index(f.ops)
    frontier = [op.results[0] for op, (a, i) in an.contractions if an.d.find((a, i)) == cls and op.results]
    while frontier:
        v = frontier.pop()
        if v in partial:
            continue
        partial.add(v)
        for u in users.get(v, []):
            if u.name == "tt.atomic_rmw" and "fadd" in u.text and u.operands.index(v) == 1:
                continue
            if u.name in ("ttg.convert_layout", "arith.mulf", "arith.truncf", "arith.extf") and u.results:
                frontier.append(u.results[0])
                continue
            reasons.append(f"{v} is a partial sum over the rows and reaches {u.name} (line {u.lineno}), "
                           "not an atomic addition")
    return partial
