"""Pointer tiles a TMA copy can load: the affine analysis of a ``tt.load``'s addresses and mask.

Most public kernels load their GEMM and attention tiles through pointers (``a_ptr + offs_m[:, None] * stride_am +
offs_k[None, :]``, advanced by ``BLOCK_K`` each iteration, masked on ``K``), which the Gluon back end copies with
cp.async from a producer of 4-8 warps, the bound of most of its gap to Triton on such kernels. Where the addresses
are ``base + sum_d (coord_d + arange_d) * stride_d`` (``coord_d`` loop-invariant but for a multiple of the iteration
index, ``stride_d`` a kernel argument, the last 1) and the mask, if any, is one bound per dimension that a TMA box's
zero fill reproduces (``coord_d + arange_d < extent_d``, ``extent_d`` computed from the arguments), the tile is the
box a descriptor over ``base`` loads at ``coord``: the launcher builds that descriptor, the producer issues one TMA
copy instead of its cp.async copies. A tile wrapped by ``% M`` (Triton's matmul tutorial) is such a box where the
launch has ``M`` a multiple of the block (the box then starts at ``coord % M``); a per-program offset of the base
(``off_h * stride_h``: a batch, a head) joins the rows where the launch has its stride a multiple of the row stride.
Everything the launch must have for the box to be the tile (16-byte alignment, those multiples) the launcher checks;
where one fails, the kernel copies with cp.async as before (``TWILL_TMA`` is a launch-time constant).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from codegen.gluon.clamps import unobserved
from codegen.gluon.poly import Mono, Poly
from codegen.gluon.values import py_name
from twill.ir import vocab
from twill.ir.function import Function
from twill.ir.ttgir import IROp, int_constant, loop_bounds, type_info

ITER = "I"                      # the iteration index of the scheduled loop (0, 1, ...)
_RANGE = re.compile(r"R(\d+)$")
_SSA = re.compile(r"%[\w$.\-#]+")          # an SSA value's name in a Python template


class NotABox(Exception):
    """Why a pointer tile is not a TMA box (kept for the kernel's docstring)."""


@dataclass(frozen=True)
class Ptr:
    base: str                # the pointer argument (SSA name)
    off: Poly                # elements from it


@dataclass(frozen=True)
class Mask:
    bounds: tuple[Poly, ...]  # each: a value that is at least 1 where the element is loaded


Sym = Poly | Ptr | Mask


@dataclass(frozen=True)
class Box:
    """A pointer tile as a TMA box: the descriptor the launcher builds (``base``, ``strides``, ``extents``: Python in
    the kernel's arguments; an extent None: unmasked) and the box's coordinates, which the producer computes (Python
    templates in the kernel's values: ``atoms`` spells each atom; ``ITER`` the iteration), all in memory's order:
    ``transposed``, the tile is the box's transpose (a K^T or B^T tile contiguous along its first dimension; its ring
    holds the box as TMA writes it and its readers see it permuted)."""

    name: str                           # the descriptor's parameter in the generated kernel
    base: str                           # the pointer argument's Python name
    shape: tuple[int, ...]
    strides: tuple[str, ...]
    extents: tuple[str | None, ...]
    coords: tuple[Poly, ...]
    checks: tuple[str, ...]             # what the launch must have, Python in the arguments
    atoms: tuple[tuple[str, str], ...] = ()   # atoms other than SSA values, each with its Python (in SSA names)
    transposed: bool = False            # the tile is the box transposed (contiguous along its first dimension)
    clamps: tuple[str, ...] = ()        # clamped indices (tl.where) the box reads unclamped (``clamps.unobserved``)

    def coord_py(self, name) -> list[str]:   # noqa: ANN001 - SSA atom -> Python
        atoms = dict(self.atoms)

        def spell(a: str) -> str:
            if a in atoms:
                return _SSA.sub(lambda m: name(m.group(0)), atoms[a])
            return name(a)
        return [c.py(spell) for c in self.coords]

    def values(self) -> set[str]:
        """The kernel's SSA values the coordinates read (the producer must have them)."""
        atoms, out = dict(self.atoms), set()
        for a in (a for c in self.coords for a in c.atoms()):
            out |= set(_SSA.findall(atoms[a])) if a in atoms else {a} if a.startswith("%") else set()
        return out


_SAME = {"arith.extsi", "arith.extui", "arith.trunci", "arith.index_cast", "ttg.convert_layout", "tt.broadcast"}
_CMP = {"slt": (1, 0), "ult": (1, 0), "sgt": (-1, 0), "ugt": (-1, 0), "sle": (1, 1), "ule": (1, 1),
        "sge": (-1, 1), "uge": (-1, 1)}


class _Eval:
    """Symbolic values of a loop body's integers, pointers and masks, in atoms invariant in the loop, ``R<d>`` and
    ``I``."""

    def __init__(self, fn: Function, loop: IROp) -> None:
        self.fn, self.loop = fn, loop
        body = loop.body
        assert body is not None
        self.body_defs = {r: o for o in body.ops for r in o.results}
        self.defs = {r: o for o, _ in fn.module.walk() for r in o.results}   # the kernel's own loops' bodies too
        self.args = {a.name: a for a in fn.args}
        self.iv, self.carried = body.args[0], dict(zip(body.args[1:], body.inits))
        yld = next((o for o in body.ops if o.name == vocab.YIELD), None)
        self.yields = dict(zip(body.args[1:], yld.operands if yld is not None else ()))
        self.wraps: dict[str, str] = {}       # wrap atom -> Python (in SSA names)
        self.checks: list[str] = []           # Python in SSA names of arguments
        self.memo: dict[str, Sym] = {}
        self.pinned: dict[str, Sym] = {}
        self.clamps: list[tuple[str, Poly, Poly, Poly]] = []   # (select, start, bound, condition): ``_clamp``

    def sym(self, v: str) -> Sym:
        if v in self.pinned:
            return self.pinned[v]
        if v not in self.memo:
            self.memo[v] = self._sym(v)
        return self.memo[v]

    def _sym(self, v: str) -> Sym:
        if v in self.args:
            a = self.args[v]
            if a.type.startswith("!tt.ptr"):
                return Ptr(v, Poly())
            if re.fullmatch(r"i\d+", a.type):
                return Poly.atom(v)
            raise NotABox(f"{v} is a {a.type} argument")
        if v == self.iv:
            bounds = loop_bounds(self.loop)
            if bounds is None:
                raise NotABox("a loop whose bounds are not read")
            lb, _, step = bounds
            return self.int(lb, False) + Poly.atom(ITER) * self.int(step, False)
        if v in self.carried:
            return self._carried(v)
        op = self.body_defs.get(v)
        inside = op is not None
        op = op or self.defs.get(v)
        if op is None:            # a value of the kernel's own loops around this one: an atom if an integer
            if re.fullmatch(r"i\d+", self.fn.type_of(v)):
                return Poly.atom(v)
            raise NotABox(f"{v} is not an integer")
        return self._op(v, op, inside)

    def int(self, v: str, inside: bool = True) -> Poly:
        s = self.sym(v)
        if not isinstance(s, Poly):
            raise NotABox(f"{v} is not an integer")
        if not inside and ({ITER} | _ranges(s)) & s.atoms():
            raise NotABox(f"{v} varies in the loop")
        return s

    def mask_bounds(self, v: str) -> tuple[Poly, ...] | None:
        """A mask's bounds (each positive where an element is kept); None where it is not a conjunction of
        comparisons the analysis reads."""
        try:
            m = self.sym(v)
        except NotABox:
            return None
        return m.bounds if isinstance(m, Mask) else None

    def _carried(self, v: str) -> Sym:
        """A loop-carried value: its initial value plus the iteration index times a loop-invariant step."""
        init = self.sym(self.carried[v])
        mark = "$" + v
        self.pinned[v] = Ptr(mark, Poly()) if isinstance(init, Ptr) else Poly.atom(mark)
        saved, self.memo = self.memo, {}
        try:
            nxt = self.sym(self.yields[v])
        finally:
            self.memo = saved
            del self.pinned[v]
        if isinstance(init, Ptr) and isinstance(nxt, Ptr) and nxt.base == mark:
            step = nxt.off
            if not (step.atoms() & ({ITER, mark} | _ranges(step))):
                return Ptr(init.base, init.off + Poly.atom(ITER) * step)
        if isinstance(init, Poly) and isinstance(nxt, Poly):
            step = nxt - Poly.atom(mark)
            if not (step.atoms() & ({ITER, mark} | _ranges(step))):
                return init + Poly.atom(ITER) * step
        raise NotABox(f"the loop carries {v} other than by a constant step")

    def _op(self, v: str, op: IROp, inside: bool) -> Sym:
        n, xs = op.name, op.operands
        if n == "arith.constant":
            k = int_constant(op)
            if k is None:
                raise NotABox(f"{v} is a constant that is not an integer")
            return Poly.const(k)
        if n in _SAME or n == "tt.splat":
            return self.sym(xs[0])
        if n == "tt.make_range":
            return Poly.const(int(op.attrs.get("start", "0").split(":")[0])) + Poly.atom("R0")
        if n == "tt.expand_dims":
            axis = int(op.attrs.get("axis", "0").split(":")[0])
            return _expand(self.sym(xs[0]), axis)
        if n in ("arith.addi", "arith.subi", "arith.muli"):
            a, b = self.int(xs[0]), self.int(xs[1])
            return a + b if n == "arith.addi" else a - b if n == "arith.subi" else a * b
        if n == "tt.addptr":
            p = self.sym(xs[0])
            if not isinstance(p, Ptr):
                raise NotABox(f"{v}: a pointer not made from an argument")
            return Ptr(p.base, p.off + self.int(xs[1]))
        if n == "arith.cmpi":
            pred = op.text.split("arith.cmpi", 1)[1].split(",")[0].strip()
            if pred not in _CMP:
                raise NotABox(f"{v}: a comparison {pred}")
            sign, slack = _CMP[pred]
            a, b = self.int(xs[0]), self.int(xs[1])
            return Mask(((b - a if sign > 0 else a - b) + Poly.const(slack),))
        if n == "arith.andi":
            a, b = self.sym(xs[0]), self.sym(xs[1])
            if isinstance(a, Mask) and isinstance(b, Mask):
                return Mask(a.bounds + b.bounds)
        if n == "arith.select" and not inside:
            return self._clamp(v, op)
        if n == "arith.remsi" and not inside:
            x = self.int(xs[0])
            if _ranges(x):
                return self._wrap(v, op, x)
        scalar = type_info(self.fn.type_of(v)).space == "scalar" and re.fullmatch(r"i\d+", self.fn.type_of(v))
        if scalar and not inside:      # any other integer computed before the loop: an atom of its own
            return Poly.atom(v)
        raise NotABox(f"its addresses go through {n} ({v}), which the analysis does not follow")

    def _wrap(self, v: str, op: IROp, x: Poly) -> Poly:
        """``(start + arange) % M``: ``start % M + arange`` where the block divides ``M`` and ``start``."""
        (r,) = _ranges(x)
        block = type_info(self.fn.type_of(v)).shape[0]
        start = x - Poly.atom(r)
        m = self.int(op.operands[1], False)
        if _ranges(start) or any(c % block for _, c in start.terms) or not _launch(m, self.args):
            raise NotABox(f"{v}: a wrap (%) the box cannot follow")
        self.wraps[v] = f"(({start.py(str)}) % ({m.py(str)}))"
        self.checks.append(f"({m.py(str)}) % {block} == 0")
        if any(self.args[a].type == "i64" for a in m.atoms()):    # an int64 wrap is an int32 coordinate below M
            self.checks.append(f"({m.py(str)}) <= {2 ** 31 - 1}")
        return Poly.atom(v) + Poly.atom(r)


    def _clamp(self, v: str, op: IROp) -> Poly:
        """``where(start + arange < bound, start + arange, 0)`` (Triton's persistent matmul): the index unclamped, the
        clamp kept for ``analyse`` (a box reads zeros where the clamp reads row 0: ``clamps.unobserved``)."""
        cond, x, zero = op.operands
        cmp = self.defs.get(cond)
        if cmp is None or cmp.name != "arith.cmpi" or cmp.operands[0] != x or self.sym(zero) != Poly.const(0):
            raise NotABox(f"its addresses go through arith.select ({v}), which the analysis does not follow")
        index, mask = self.int(x), self.sym(cond)
        start = index - Poly.atom("R0")
        bound = self.int(cmp.operands[1], False)
        if _ranges(start) or not isinstance(mask, Mask) or not _launch(bound, self.args):
            raise NotABox(f"{v}: a clamp (tl.where) the box cannot follow")
        self.clamps.append((v, start, bound, mask.bounds[0]))
        return index


def _ranges(p: Poly) -> set[str]:
    return {a for a in p.atoms() if _RANGE.match(a)}


def _expand(s: Sym, axis: int) -> Sym:
    def f(a: str) -> str:
        m = _RANGE.match(a)
        return f"R{int(m.group(1)) + 1}" if m and int(m.group(1)) >= axis else a
    if isinstance(s, Poly):
        return s.rename(f)
    if isinstance(s, Ptr):
        return Ptr(s.base, s.off.rename(f))
    return Mask(tuple(b.rename(f) for b in s.bounds))


def _launch(p: Poly, args: dict) -> bool:
    """Whether the launcher can compute ``p``: constants and integer arguments."""
    return all(a in args for a in p.atoms())


def _divides(s: tuple[Mono, int], m: tuple[Mono, int]) -> tuple[Mono, int] | None:
    """``m / s`` where the monomial ``s`` divides ``m``."""
    (sm, sc), (mm, mc) = s, m
    rest = list(mm)
    for a in sm:
        if a not in rest:
            return None
        rest.remove(a)
    return (tuple(rest), mc // sc) if sc and mc % sc == 0 else None


def analyse(fn: Function, loop: IROp, load: IROp) -> Box:
    """The TMA box of pointer load ``load`` in ``loop`` (a ``NotABox`` saying why it is none)."""
    ev = _Eval(fn, loop)
    p = ev.sym(load.operands[0])
    t = type_info(fn.type_of(load.results[0]))
    if not isinstance(p, Ptr) or p.base.startswith("$"):
        raise NotABox("its pointer is not an argument plus offsets")
    pointee = fn.type_of(p.base)
    if f"<{t.dtype}>" not in pointee:
        raise NotABox(f"its argument points to {pointee}, the tile is {t.dtype}")
    rank = len(t.shape)
    if rank != 2:
        raise NotABox(f"a {rank}-D tile")
    mask = ev.sym(load.operands[1]) if len(load.operands) > 1 else Mask(())
    if not isinstance(mask, Mask):
        raise NotABox("its mask is not a conjunction of comparisons")
    off, shape, transposed = p.off, t.shape, _contiguous(p.off, rank) == 0
    if transposed:       # contiguous along the tile's rows (B^T, K^T): the box is the tile transposed, in memory's order
        off, mask, shape = _swapped(off), Mask(tuple(_swapped(b) for b in mask.bounds)), t.shape[::-1]
    strides, rest = _strides(off, rank)
    masked = {int(r[1:]) for b in mask.bounds for r in _ranges(b)}
    coords, flat, joined = _coords(rest, strides, rank, ev.args, rank - 1 not in masked)
    extents = _extents(ev, mask, coords, rank)
    for v, start, bound, cond in ev.clamps:
        d = next((d for d in range(rank) if coords[d] == start and extents[d] in (None, bound)), None)
        if d is None:
            raise NotABox(f"{v}: a clamp (tl.where) on no dimension of the box")
        why = unobserved(fn, loop, load, rank - 1 - d if transposed else d, cond, ev.mask_bounds)
        if why is not None:
            raise NotABox(f"{v}: rows past its clamp (tl.where) read row 0, not a box's zeros, and {why}")
        extents[d] = bound
    checks = [c for c in ev.checks] + flat
    wide = [a for c in coords for a in sorted(c.atoms()) if a.startswith("%") and fn.type_of(a) == "i64"]
    if wide:     # TMA takes int32 coordinates: exact only where every dimension's extent (so each tile's coordinate)
        # fits int32, which the launch checks (FlagGems' bmm computes its offsets from int64 program ids)
        checks += [f"({e.py(lambda a: a)}) <= {2 ** 31 - 1 - shape[d]}" for d, e in enumerate(extents)
                   if e is not None]
    for d, s in enumerate(strides[:-1]):
        if not _launch(s, ev.args):
            raise NotABox(f"its stride along dimension {d} is not an argument")
    return Box(f"twill_box_{py_name(load.results[0])}", py_name(p.base), shape, tuple(s.py(py_name) for s in strides),
               tuple(None if e is None else e.py(py_name) for e in extents), tuple(coords),
               tuple(_SSA.sub(lambda m: py_name(m.group(0)), c) for c in checks),
               tuple({**ev.wraps, **joined}.items()), transposed, tuple(py_name(c[0]) for c in ev.clamps))


def _contiguous(off: Poly, rank: int) -> int | None:
    """The tile dimension along which consecutive elements are consecutive in memory (``R<d>`` times 1)."""
    return next((d for d in range(rank) if off.d.get((f"R{d}",), 0) == 1), None)


def _swapped(p: Poly) -> Poly:
    return p.rename(lambda a: {"R0": "R1", "R1": "R0"}.get(a, a))


def _strides(off: Poly, rank: int) -> tuple[list[Poly], Poly]:
    """The offset's stride along each dimension (what multiplies ``R<d>``) and the rest."""
    strides: list[dict[Mono, int]] = [{} for _ in range(rank)]
    rest: dict[Mono, int] = {}
    for m, c in off.terms:
        rs = [a for a in m if _RANGE.match(a)]
        if not rs:
            rest[m] = c
            continue
        if len(rs) > 1 or ITER in m or int(rs[0][1:]) >= rank:
            raise NotABox("its offsets are not affine in the tile's indices")
        d = int(rs[0][1:])
        k = tuple(a for a in m if a != rs[0])
        strides[d][k] = strides[d].get(k, 0) + c
    out = [Poly.of(s) for s in strides]
    if any(not s.terms for s in out):
        raise NotABox("a dimension along which its addresses do not move")
    if out[-1].value() != 1:
        raise NotABox("its last dimension is not contiguous")
    for d, s in enumerate(out[:-1]):
        if len(s.terms) != 1 or s.terms[0][1] <= 0:
            raise NotABox(f"its stride along dimension {d} is not one product")
    return out, Poly.of(rest)


def _coords(rest: Poly, strides: list[Poly], rank: int, args: dict,
            free: bool) -> tuple[list[Poly], list[str], dict[str, str]]:
    """The box's start along each dimension: each term of the offset's rest divided by the stride it is a multiple
    of, any other along the contiguous dimension (the same address), but for a term with an argument (a per-program
    base: a batch, a head, a split-K slice) where the contiguous dimension is masked (not ``free``): that one joins
    the rows where the launch has it a multiple of the row stride."""
    coords = [dict() for _ in range(rank)]
    checks: list[str] = []
    atoms: dict[str, str] = {}
    for m, c in rest.terms:
        for d in range(rank - 1):
            q = _divides(strides[d].terms[0], (m, c))
            if q is not None:
                coords[d][q[0]] = coords[d].get(q[0], 0) + q[1]
                break
        else:
            launch = [a for a in m if a in args]
            if not launch or free:
                coords[-1][m] = coords[-1].get(m, 0) + c
                continue
            row = strides[0].py(str)
            part = " * ".join([str(c)] + launch)
            checks.append(f"({part}) % ({row}) == 0")
            atom = f"q{len(atoms)}"
            atoms[atom] = f"(({part}) // ({row}))"
            k = tuple(sorted([a for a in m if a not in launch] + [atom]))
            coords[0][k] = coords[0].get(k, 0) + 1
    return [Poly.of(c) for c in coords], checks, atoms


def _extents(ev: _Eval, mask: Mask, coords: list[Poly], rank: int) -> list[Poly | None]:
    """Each dimension's extent from the mask (None: unmasked, read wherever the addresses go). The load's ``other``
    is zero, the box's fill (a ring copied otherwise is refused, ``plan._copied_layout``)."""
    ext: list[Poly | None] = [None] * rank
    for b in mask.bounds:
        rs = _ranges(b)
        if len(rs) != 1:
            raise NotABox("a mask bound that is not along one dimension")
        r = rs.pop()
        d = int(r[1:])
        lin = b.d.get((r,), 0)
        if any(r in mm and mm != (r,) for mm, _ in b.terms) or lin not in (1, -1):
            raise NotABox("a mask bound not linear in the tile's index")
        pos = coords[d] + Poly.atom(r)
        if lin == 1:                      # coord + r >= 0: the box's own lower bound
            if b - pos != Poly.const(1):
                raise NotABox("a mask's lower bound other than 0")
            continue
        e = b + pos
        if ext[d] is not None or not _launch(e, ev.args):
            raise NotABox(f"a mask along dimension {d} the launch cannot compute")
        ext[d] = e
    return ext

