"""Memory dependences of a loop body: a store and a load (or two stores) of one buffer stay in order.

An SSA edge cannot see that ``tl.load(scratch + offs)`` reads what ``tl.store(scratch + offs, x)``
wrote: both only use a pointer. Every global access of the body (its own, or one inside an ``scf.if``
of the body) is traced back to its buffer: the kernel argument (or tensor descriptor) its pointer is
computed from. Two accesses may touch the same memory when they trace to the same argument, or when
either traces to something else (a pointer loaded from memory, a select): distinct pointer arguments
are assumed not to alias, as Triton's own pipeliner assumes. For each such pair, one a store, the
earlier in program order goes first in the same iteration (distance 0) and the later goes before the
earlier one of the next iteration (distance 1), unless their addresses are proved apart: an address
``base + k * adv + [lo, hi)`` (iteration ``k``, a constant advance, a constant range of offsets, the
same loop-invariant terms) never meets another iteration's when ``|adv| >= hi - lo`` over both. A grid-stride
loop (``for b in tl.range(pid, n, tl.num_programs(0))``) steps by a runtime value known to be at least 1: its
advance is ``adv`` times that value, at least ``|adv|`` apart all the same.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

from twill.ir import vocab
from twill.ir.ttgir import IROp, Module

ACCESSES = vocab.LOADS | vocab.STORES
# Ops a pointer (or a tensor descriptor) passes through on its way from the buffer to the access.
# (tt.bitcast: a pointer of another element type, the same buffer: Triton loads a ``*i1`` argument through
# ``!tt.ptr<i1> -> !tt.ptr<i8>``; SpargeAttn's block map had been ordered against every store of the loop)
_POINTER_VIEWS = frozenset({"tt.addptr", "tt.splat", "tt.broadcast", "tt.expand_dims", "tt.reshape", "tt.trans",
                            "ttg.convert_layout", "tt.make_tensor_descriptor", "tt.make_tensor_ptr", "tt.advance",
                            "tt.bitcast"})
_SHAPE_VIEWS = frozenset({"tt.splat", "tt.broadcast", "tt.expand_dims", "tt.reshape", "ttg.convert_layout"})


@dataclass(frozen=True)
class Access:
    """A global memory access of the body: the top-level op index it belongs to, whether it writes,
    the buffer it traces to (None: unknown, may alias anything) and its address (None: not affine)."""

    index: int
    op: IROp
    writes: bool
    root: str | None
    address: "Affine | None"


@dataclass(frozen=True)
class Affine:
    """``k * adv * unit + sum(terms) + [lo, hi)`` elements from the buffer in iteration ``k``; ``unit`` the
    loop's runtime step where it is one known to be at least 1 (``tt.get_num_programs``), else 1 (None)."""

    adv: int
    terms: tuple[tuple[str, int], ...]
    lo: int
    hi: int
    unit: str | None = None


@dataclass(frozen=True)
class MemDep:
    src: int
    dst: int
    distance: int
    root: str | None


class Scope:
    """Name resolution for the loop: the op defining each value, innermost region first, and the
    loop's block arguments (induction variable, iter_args with their inits and yielded values)."""

    def __init__(self, levels: list[dict[str, IROp]], iv: str, step: int | None, carried: dict[str, tuple[str, str]],
                 args: tuple[str, ...], step_unit: str | None = None) -> None:
        self.levels, self.iv, self.step, self.carried, self.args = levels, iv, step, carried, args
        self.step_unit = step_unit      # a runtime step known to be at least 1 (then ``step`` is 1)

    def inner(self, ops: list[IROp]) -> "Scope":
        return Scope([defs(ops)] + self.levels, self.iv, self.step, self.carried, self.args, self.step_unit)

    def op(self, v: str) -> IROp | None:
        for level in self.levels:
            if v in level:
                return level[v]
        return None


def scope_of(module: Module, loop: IROp) -> Scope:
    """The names the body of ``loop`` (an ``scf.for`` of ``module``) can see, innermost first: its own
    ops, then the blocks around it out to its function's body, and its function's arguments."""
    site = module.site(loop)
    func = next((f for f in module.funcs if f.name == site.func), None)
    chain = site.parents + (loop,)
    levels: list[dict[str, IROp]] = [defs(loop.body.ops if loop.body else [])]
    for parent, child in reversed(list(zip(chain, chain[1:]))):
        for block in ((parent.body,) if parent.body is not None else ()) + parent.regions:
            if any(o is child for o in block.ops):
                levels.append(defs(block.ops))
    levels.append(defs(func.ops if func else module.ops))
    body = loop.body
    head = re.search(r"step\s+(%[\w$.\-]+)", loop.text)
    scope = Scope(levels, body.args[0] if body and body.args else "", None, {},
                  func.args if func else ())
    scope.step = constant(scope.op(head.group(1))) if head else None
    if head and scope.step is None and _at_least_one(head.group(1), scope):
        scope.step, scope.step_unit = 1, head.group(1)
    yielded = next((o.operands for o in (body.ops if body else []) if o.name == vocab.YIELD), ())
    scope.carried = {a: (i, y) for a, i, y in zip(body.args[1:], body.inits, yielded)} if body else {}
    return scope


def defs(ops: list[IROp]) -> dict[str, IROp]:
    """The op defining each result of ``ops`` (``%x:2`` results as ``%x#0``, ``%x#1`` and ``%x``)."""
    out: dict[str, IROp] = {}
    for o in ops:
        for r in o.results:
            out[r] = o
            out.setdefault(r.split("#")[0], o)
    return out


def constant(op: IROp | None) -> int | None:
    """The integer an ``arith.constant`` (scalar or splat ``dense<c>``) holds."""
    if op is None or op.name != "arith.constant":
        return None
    m = re.search(r"arith\.constant (?:dense<)?(-?\d+)(?:>)? :", op.text)
    return int(m.group(1)) if m else None


def _at_least_one(v: str, scope: Scope) -> bool:
    """Whether the integer ``v`` is a runtime value at least 1: a grid size (``tl.num_programs``), or such a
    value times a positive constant."""
    op = scope.op(v)
    if op is None:
        return False
    if op.name == "tt.get_num_programs":
        return True
    if op.name == "arith.muli" and len(op.operands) >= 2:
        a, b = op.operands[:2]
        return ((_at_least_one(a, scope) and (constant(scope.op(b)) or 0) >= 1)
                or (_at_least_one(b, scope) and (constant(scope.op(a)) or 0) >= 1))
    return False


def root(v: str, scope: Scope, seen: frozenset[str] = frozenset()) -> str | None:
    """The kernel argument the pointer / descriptor ``v`` is computed from, else None."""
    if v in seen:
        return None
    if v in scope.carried:
        init, yielded = scope.carried[v]
        return root(init, scope, seen | {v}) if _loops_back(yielded, v, scope) else None
    op = scope.op(v)
    if op is None:
        return v if v in scope.args else None
    if op.name in _POINTER_VIEWS and op.operands:
        return root(op.operands[0], scope, seen | {v})
    if op.name == vocab.LOOP and op.body is not None and v in op.results:   # an earlier loop's pointer, moved along
        # by views alone: its initial value's root (verl's entropy backward rewinds a K loop's pointers after it,
        # ``ptrs -= hidden_size * stride``, for a second K loop: unresolved, its loads were taken to alias the fp32
        # atomics of the scheduled loop, RecMII 502 against ResMII 144)
        k = op.results.index(v)
        yielded = next((o.operands for o in op.body.ops if o.name == vocab.YIELD), ())
        if k < len(yielded) and k + 1 < len(op.body.args) \
                and _loops_back(yielded[k], op.body.args[k + 1], scope.inner(op.body.ops)):
            return root(op.body.inits[k], scope, seen | {v})
    return None


def _loops_back(yielded: str, arg: str, scope: Scope) -> bool:
    """Whether the value yielded for iter_arg ``arg`` is ``arg`` moved along by pointer views only."""
    v, steps = yielded, 0
    while v != arg and steps < 64:
        op = scope.op(v)
        if op is None or op.name not in _POINTER_VIEWS or not op.operands:
            return False
        v, steps = op.operands[0], steps + 1
    return v == arg


def affine(v: str, scope: Scope, depth: int = 0) -> Affine | None:
    """The address (or offset) ``v`` as ``Affine``, None when it is not one (a runtime stride, a load)."""
    if depth > 64:
        return None
    if v == scope.iv:
        return Affine(scope.step, (), 0, 1, scope.step_unit) if scope.step is not None else None
    if v in scope.carried:
        return _carried_affine(v, scope, depth)
    op = scope.op(v)
    if op is None:
        return Affine(0, ((v, 1),), 0, 1)               # a kernel argument (a scalar or a pointer)
    c = constant(op)
    if c is not None:
        return Affine(0, (), c, c + 1)
    if op.name == "tt.make_range":
        m = re.search(r"end = (\d+) : i32, start = (\d+)", op.text)
        return Affine(0, (), int(m.group(2)), int(m.group(1))) if m else None
    if op.name in _SHAPE_VIEWS or op.name in ("tt.make_tensor_descriptor", "arith.extsi"):
        return affine(op.operands[0], scope, depth + 1) if op.operands else None
    if op.name in ("tt.addptr", "arith.addi") and len(op.operands) >= 2:
        a, b = affine(op.operands[0], scope, depth + 1), affine(op.operands[1], scope, depth + 1)
        return _add(a, b)
    if op.name == "arith.muli" and len(op.operands) >= 2:
        return _scale(op, scope, depth)
    return None


def _add(a: Affine | None, b: Affine | None) -> Affine | None:
    if a is None or b is None or (a.adv and b.adv and a.unit != b.unit):
        return None
    terms: dict[str, int] = dict(a.terms)
    for n, k in b.terms:
        terms[n] = terms.get(n, 0) + k
    return Affine(a.adv + b.adv, tuple(sorted((n, k) for n, k in terms.items() if k)), a.lo + b.lo,
                  a.hi + b.hi - 1, a.unit if a.adv else b.unit)


def _scale(op: IROp, scope: Scope, depth: int) -> Affine | None:
    x, y = op.operands[0], op.operands[1]
    k = constant(scope.op(y))
    if k is None:
        x, y = y, x
        k = constant(scope.op(y))
    a = affine(x, scope, depth + 1)
    if a is None:
        return None
    if k is None:
        # invariant times invariant is an invariant term; anything moving times a runtime value is not affine
        return Affine(0, ((op.results[0], 1),), 0, 1) if a.adv == 0 and a.hi - a.lo == 1 and a.lo == 0 else None
    lo, hi = sorted((a.lo * k, (a.hi - 1) * k))
    return Affine(a.adv * k, tuple((n, c * k) for n, c in a.terms), lo, hi + 1, a.unit)


def _carried_affine(v: str, scope: Scope, depth: int) -> Affine | None:
    """An iter_arg moved by a constant each iteration: its init plus ``k`` times that constant."""
    init, yielded = scope.carried[v]
    op = scope.op(yielded)
    if op is None or op.name not in ("tt.addptr", "arith.addi") or v not in op.operands[:2] or len(op.operands) < 2:
        return None
    inc = affine(op.operands[1] if op.operands[0] == v else op.operands[0], scope, depth + 1)
    start = affine(init, scope, depth + 1)
    if inc is None or start is None or inc.adv != 0 or inc.terms or inc.hi - inc.lo != 1 or start.adv != 0:
        return None
    return Affine(inc.lo, start.terms, start.lo, start.hi)


def accesses(body: list[IROp], scope: Scope) -> list[Access]:
    """Every global memory access of the body, in program order, with its top-level op index."""
    out: list[Access] = []
    for i, op in enumerate(body):
        for o, s in _flat(op, scope):
            if o.name in ACCESSES and o.operands:
                ptr = o.operands[0]
                out.append(Access(i, o, o.name in vocab.STORES, root(ptr, s), affine(ptr, s)))
    return out


def _flat(op: IROp, scope: Scope) -> Iterator[tuple[IROp, Scope]]:
    yield op, scope
    for block in op.regions:
        inner = scope.inner(block.ops)
        for o in block.ops:
            yield from _flat(o, inner)


def _may_alias(a: Access, b: Access) -> bool:
    return a.root is None or b.root is None or a.root == b.root


def _apart(a: Access, b: Access, across: bool) -> bool:
    """Whether the two accesses' addresses are proved disjoint: within one iteration (``across`` False)
    or between any two different iterations (``across`` True)."""
    x, y = a.address, b.address
    if x is None or y is None or x.adv != y.adv or x.terms != y.terms or (x.adv and x.unit != y.unit):
        return False
    if across:
        return x.adv != 0 and abs(x.adv) >= max(x.hi, y.hi) - min(x.lo, y.lo)
    return x.hi <= y.lo or y.hi <= x.lo


def memory_deps(body: list[IROp], scope: Scope) -> list[MemDep]:
    """Ordering edges between the body's top-level ops for every pair of accesses to one buffer,
    one of them a store (see the module docstring), and around each barrier: every access before
    it in the body goes before it, every access after it goes after it (same iteration); an access that may race
    with another (one of them a store) also after the barrier of the iteration before, where it comes before the
    barrier in the body, or before the next iteration's, where it comes after (a scratch buffer read back, then
    written again by the next iteration once every thread has read it).

    Examples
    --------
    >>> [(d.src, d.dst, d.distance) for d in memory_deps(body, scope)]     # doctest: +SKIP
    [(3, 7, 0), (7, 3, 1)]
    """
    acc = accesses(body, scope)
    out: dict[tuple[int, int, int], MemDep] = {}
    for k, a in enumerate(acc):
        for b in acc[k + 1:]:
            if a.index == b.index or not (a.writes or b.writes) or not _may_alias(a, b):
                continue
            r = a.root if a.root == b.root else None
            if not _apart(a, b, across=False):
                out.setdefault((a.index, b.index, 0), MemDep(a.index, b.index, 0, r))
            if not _apart(a, b, across=True):
                out.setdefault((b.index, a.index, 1), MemDep(b.index, a.index, 1, r))
    # accesses another may race with across threads (one of the two writes): a barrier orders them across iterations
    # too, the next iteration's accesses before it after it, this iteration's after it before the next one's
    shared = {a.index for a in acc for b in acc
              if a.index != b.index and (a.writes or b.writes) and _may_alias(a, b)}
    for k, op in enumerate(body):
        if op.name in vocab.BARRIERS:
            for a in acc:
                pair = (a.index, k) if a.index < k else (k, a.index)
                out.setdefault(pair + (0,), MemDep(pair[0], pair[1], 0, a.root))
                if a.index in shared:
                    out.setdefault(pair[::-1] + (1,), MemDep(pair[1], pair[0], 1, a.root))
    return list(out.values())
