"""Pointer loads held across an iteration in the layout that costs one register, not in their readers' layout.

A consumer issues each pointer load one stage ahead of its first reader (``plan._add_pointer_loads``), so
the loaded value lives across the loop's back edge, two copies of it at once (the one being read and the
next one in flight). Triton lays such a vector out for its readers: the log-sum-exp a FlashAttention
backward subtracts from every row of ``S^T`` comes as a slice of the wgmma accumulator's layout, which
replicates each of its 64 values over the threads of a row: 16 registers per thread where one would do.
Measured offline (ptxas, the FA backward's committed kernel): its two such loads, held this way, cost 64
registers per thread and 188 spill instructions per loop iteration; held compactly, 23.

The rule: a loop pointer load whose readers' layout holds more elements per thread than the compact
layout (``layouts.compact``) is loaded in the compact layout, together with the address and mask values
only it needs (they are computed in that layout from the start, so nothing else changes), and converted
to its readers' layout where it is read (``LoopWriter._to_readers_layout``: one shared-memory round trip of the vector
there, in place of the registers across the iteration). A load whose addresses share a tensor with
other ops keeps its layout.

Only where registers are short: a consumer whose register target is at least ``COMPACT_HEADROOM`` above its
estimated need keeps its readers' layout, as the conversion costs instructions every iteration (run 44:
w4a16_gemm's 8-warp consumer, 192 registers for a need of about 120, its per-group scale held compactly: its loop
is 389 SASS instructions a trip, 274 without the conversion; the consumer was the critical path, 1366 of its 1779
cycles an iteration outside every op region).
"""
from __future__ import annotations

from codegen.gluon.layouts import Layout, compact, parse_type, per_thread
from twill.ir import vocab
from twill.ir.function import Function
from twill.ir.ttgir import IROp

_LAYOUT_FREE = {"tt.splat", "arith.constant"}     # broadcast scalars in the generated source
COMPACT_HEADROOM = 48     # registers per thread a consumer has beyond its estimated need, above which none is compact


def _walk(ops: list[IROp]):
    """Every op, loop bodies included (a loop op itself reads nothing: its body's ops do)."""
    for op in ops:
        if op.body is not None:
            yield from _walk(op.body.ops)
            continue
        yield op
        for r in op.regions:
            yield from _walk(r.ops)


def compact_loads(fn: Function, table: dict[str, str], loads: list[IROp], warps: int) -> dict[str, Layout]:
    """The values to lay out compactly on a partition of ``warps`` warps, for the loop pointer loads
    ``loads`` it issues: each load's result and the address and mask values only that load reads."""
    ops = list(_walk(fn.ops))
    defining = {r: op for op in ops for r in op.results}
    users: dict[str, list[int]] = {}
    for op in ops:
        for v in op.operands:
            users.setdefault(v, []).append(id(op))
    chosen: dict[int, tuple[IROp, Layout]] = {}
    for load in loads:
        if load.name != vocab.POINTER_LOAD or not load.results:
            continue
        t = parse_type(fn.type_of(load.results[0]), table)
        layout = compact(t.shape, warps)
        now = per_thread(t.layout, t.shape)
        if layout is not None and now is not None and now > (per_thread(layout, t.shape) or now):
            chosen[id(load)] = (load, layout)
    while chosen:                     # drop the loads whose addresses share a tensor with other ops, until none
        own, values = _closure([op for op, _ in chosen.values()], defining, users, fn, table)
        bad = [k for k, (op, _) in chosen.items() if not _owned(op, own, values, defining, fn, table)]
        if not bad:
            return {v: layout for op, layout in chosen.values() for v in _chain(op, values, defining)}
        for k in bad:
            del chosen[k]
    return {}


def _tensor(v: str, defining: dict[str, IROp], fn: Function, table: dict[str, str]) -> bool:
    """Whether ``v`` is a tensor with a layout in the generated source (not an argument, a scalar, or a
    broadcast scalar)."""
    d = defining.get(v)
    if d is not None and d.name in _LAYOUT_FREE:
        return False
    # a loop-carried tensor counts too (it has no defining op, so it is never owned)
    return v in fn.types and parse_type(fn.types[v], table).kind == "tensor"


def _closure(loads: list[IROp], defining: dict[str, IROp], users: dict[str, list[int]], fn: Function,
             table: dict[str, str]) -> tuple[set[int], set[str]]:
    """The ops and values only the loads read (through one another), grown until nothing joins."""
    own = {id(op) for op in loads}
    values = {op.results[0] for op in loads}
    grew = True
    while grew:
        grew = False
        for v in {u for d in list(defining.values()) if id(d) in own for u in d.operands}:
            if v in values or not _tensor(v, defining, fn, table) or v not in defining:
                continue
            d = defining[v]
            if d.body is None and all(u in own for u in users.get(v, ())):
                own.add(id(d))
                values.add(v)
                grew = True
    return own, values


def _chain(load: IROp, values: set[str], defining: dict[str, IROp]) -> set[str]:
    """The load's result and the owned values it reads, transitively."""
    out, frontier = {load.results[0]}, list(load.operands)
    while frontier:
        v = frontier.pop()
        if v in values and v not in out:
            out.add(v)
            frontier.extend(defining[v].operands)
    return out


def _owned(load: IROp, own: set[int], values: set[str], defining: dict[str, IROp], fn: Function,
           table: dict[str, str]) -> bool:
    """Every tensor the load reads, transitively, is owned, and of the load's shape."""
    shape = parse_type(fn.type_of(load.results[0]), table).shape
    for v in _chain(load, values, defining):
        for u in defining[v].operands:
            if _tensor(u, defining, fn, table) and u not in values:
                return False
        if parse_type(fn.type_of(v), table).shape != shape:
            return False
    return True
