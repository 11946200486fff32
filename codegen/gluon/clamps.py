"""Clamped tile rows that nothing observes, so that a TMA box may load the tile.

Triton's persistent matmul (tutorial 09) keeps a tile's rows in bounds with a clamp, ``offs_am = tl.where(offs_am < M,
offs_am, 0)``: rows past ``M`` read row 0. A TMA box over ``M`` rows reads zeros there instead. The two tiles differ
only in those rows, so the box is the tile wherever those rows reach nothing a kernel writes: ``unobserved`` proves,
from the TTGIR, that the tile's clamped dimension reaches only the matching dimension of a dot's accumulator (through
ops that keep every element in its place), that the accumulator reaches only stores, and that each store's mask
holds the clamp's own bound on that dimension (``offs_cm < M``). The store's index is usually computed again after
the loop (the tutorial recomputes the tile's ``pid_m`` from a second tile counter): the two are compared in canonical
form (``Canon``: integers as polynomials over the kernel's arguments and opaque ops spelled with their canonical
operands, a loop's induction variable and constant-step carried values as functions of its trip index).
"""
from __future__ import annotations

import re
from collections import defaultdict
from typing import Callable

from codegen.gluon.poly import Poly
from twill.ir import vocab
from twill.ir.function import Function
from twill.ir.ttgir import IROp, int_constant, loop_bounds

# ops that keep each element of a tile in its place (the others' operands are elementwise or broadcast)
IN_PLACE = frozenset({"ttg.local_alloc", "ttg.local_load", "ttg.convert_layout", "arith.extf", "arith.truncf",
                      "tt.fp_to_fp", "arith.sitofp", "arith.uitofp", "arith.extsi", "arith.extui", "arith.trunci",
                      "tt.bitcast", "arith.bitcast", "arith.mulf", "arith.addf", "arith.subf", "arith.divf",
                      "arith.muli", "arith.addi", "arith.subi", "arith.maxnumf", "arith.minnumf"})
_PURE = ("arith.", "math.", "tt.get_program_id", "tt.get_num_programs")
_REGION = frozenset({vocab.LOOP, "scf.if", "scf.while"})
_TOKEN = re.compile(r"%[\w$.\-#]+")


class Canon:
    """The kernel's integers in canonical form: two values with equal forms are equal whenever both are computed in
    the same trip of the loops around them (affine arithmetic exactly, other ops by their spelling)."""

    def __init__(self, fn: Function) -> None:
        self.fn = fn
        self.defs = {r: o for o, _ in fn.module.walk() for r in o.results}
        self.args = {a.name for a in fn.args}
        self.loop_args: dict[str, tuple[IROp, int]] = {}
        for o, _ in fn.module.walk():
            if o.name == vocab.LOOP and o.body is not None:
                for i, a in enumerate(o.body.args):
                    self.loop_args[a] = (o, i - 1)        # -1: the induction variable
        self.memo: dict[str, Poly] = {}

    def poly(self, p: Poly) -> Poly:
        """``p`` with each SSA atom replaced by its canonical form (other atoms, ``R<d>``, kept)."""
        out = Poly()
        for m, c in p.terms:
            term = Poly.const(c)
            for a in m:
                term = term * (self.of(a) if a.startswith("%") else Poly.atom(a))
            out = out + term
        return out

    def of(self, v: str) -> Poly:
        if v not in self.memo:
            self.memo[v] = Poly.atom(v)          # a cycle reads the value as itself (opaque)
            self.memo[v] = self._of(v)
        return self.memo[v]

    def _of(self, v: str) -> Poly:
        if v in self.args:
            return Poly.atom(v)
        if v in self.loop_args:
            return self._loop_arg(v, *self.loop_args[v])
        op = self.defs.get(v)
        if op is None:
            return Poly.atom(v)
        n, xs = op.name, op.operands
        if n == "arith.constant":
            k = int_constant(op)
            return Poly.atom(v) if k is None else Poly.const(k)
        if n in ("arith.extsi", "arith.extui", "arith.trunci", "arith.index_cast", "tt.splat"):
            return self.of(xs[0])
        if n in ("arith.addi", "arith.subi", "arith.muli"):
            a, b = self.of(xs[0]), self.of(xs[1])
            return a + b if n == "arith.addi" else a - b if n == "arith.subi" else a * b
        if not n.startswith(_PURE) or op.body is not None or op.regions or len(op.results) != 1:
            return Poly.atom(v)                   # a load, say: two spelled alike may read different values
        rhs = op.text.split("=", 1)[1].split(" loc(")[0].strip()
        return Poly.atom("{" + _TOKEN.sub(lambda t: "(" + self.of(t.group(0)).py(str) + ")", rhs) + "}")

    def _loop_arg(self, v: str, loop: IROp, i: int) -> Poly:
        """A loop's induction variable (lower bound + trip * step), or a value it carries by a constant step (initial
        value + trip * step); any other carried value is opaque."""
        assert loop.body is not None
        trip = Poly.atom("J" + loop.body.args[0])
        if i < 0:
            bounds = loop_bounds(loop)
            return self.of(bounds[0]) + trip * self.of(bounds[2]) if bounds else Poly.atom(v)
        yld = next((o for o in loop.body.ops if o.name == vocab.YIELD), None)
        if yld is None or i >= len(yld.operands):
            return Poly.atom(v)
        saved, self.memo = self.memo, {v: Poly.atom(v)}       # v reads as its own atom; nothing else is under way
        try:
            step = self.of(yld.operands[i]) - Poly.atom(v)
        finally:
            self.memo = saved
        if any(a == v or a.startswith("J") or v in a for a in step.atoms()):
            return Poly.atom(v)
        return self.of(loop.body.inits[i]) + trip * step


def _users(fn: Function) -> dict[str, list[tuple[IROp, int]]]:
    out: dict[str, list[tuple[IROp, int]]] = defaultdict(list)
    for o, _ in fn.module.walk():
        if o.name in _REGION:           # a region op lists the values its body reads: the body's ops are the users
            continue
        for i, x in enumerate(o.operands):
            out[x].append((o, i))
    return out


def _in_place(users: dict[str, list[tuple[IROp, int]]], start: str,
              stop: Callable[[IROp, int], bool]) -> tuple[list[tuple[IROp, int]], str | None]:
    """The uses ``stop`` accepts that ``start`` reaches through in-place ops; else the first other use, said."""
    ends, todo, seen = [], [start], {start}
    while todo:
        for u, i in users.get(todo.pop(), []):
            if stop(u, i):
                ends.append((u, i))
            elif u.name in IN_PLACE:
                todo.extend(r for r in u.results if r not in seen)
                seen.update(u.results)
            else:
                return ends, f"it reaches {u.name}"
    return ends, None


def unobserved(fn: Function, loop: IROp, load: IROp, dim: int, cond: Poly,
               mask_bounds: Callable[[str], tuple[Poly, ...] | None]) -> str | None:
    """None where the rows (``dim`` 0) or columns (1) of ``load``'s tile that fail the clamp's condition ``cond``
    (``bound - index``, positive where kept, in ``R0``) reach nothing a store writes; else why not. ``mask_bounds``:
    a store mask's bounds, each positive where an element is stored (None: not a conjunction of comparisons)."""
    users = _users(fn)
    body = loop.body
    assert body is not None
    yld = next(o for o in body.ops if o.name == vocab.YIELD)
    dots, why = _in_place(users, load.results[0], lambda u, i: u.name in vocab.DOTS)
    if why or not dots:
        return why or "it reaches no dot"
    if any(i != dim for _, i in dots):       # rows of A (operand 0) or columns of B (1): the accumulator's own
        return "it reaches a dot's " + ("B" if dim == 0 else "A") + " operand"
    canon, expected = Canon(fn), cond.rename(lambda a: f"R{dim}" if a == "R0" else a)
    for dot, _ in dots:
        if len(dot.operands) < 3 or dot.operands[2] not in body.args[1:]:
            return "its dot does not accumulate into a value the loop carries"
        k = body.args.index(dot.operands[2]) - 1
        ends, why = _in_place(users, dot.results[0], lambda u, i: u is yld and i == k)
        if why or not ends or [u for u, _ in users.get(dot.operands[2], []) if u is not dot]:
            return why or "its accumulator is read other than by its dot"
        stores, why = _in_place(users, loop.results[k], lambda u, i: u.name == "tt.store" and i == 1)
        if why or not stores:
            return why or "its accumulator reaches no store"
        for st, _ in stores:
            bounds = mask_bounds(st.operands[2]) if len(st.operands) > 2 else ()
            if bounds is None or not any(canon.poly(b) == canon.poly(expected) for b in bounds):
                return "a store of its accumulator does not mask the clamped " + ("rows" if dim == 0 else "columns")
    return None
