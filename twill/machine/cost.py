"""Cost model: an op's cycles and reservation table from its shapes, dtypes and the machine's rates,
or from a measured profile; a dependence's delay is its producer's latency.

Cycles are per SM (a tile op uses the whole SM, paper 3.1). The reservation table says which unit
an op keeps busy, from which cycle and for how long; the modulo schedule packs these per II:
- dot: the tensor core is busy for the whole GEMM (throughput-bound: FLOPs / FLOP per clock).
- sfu: the folded arithmetic (scale, subtract) runs on the ALU first, then the MUFU pipe.
- reduce: the ALU combines the input elements; the warp shuffles and shared-memory exchange add
  latency without holding the ALU.
- elementwise / convert / broadcast: the ALU, per element per folded op (a division or a libdevice
  function counts the instructions ptxas expands it into, ``twill.graph.build.EXPANDS``), then the MUFU
  pipe for their MUFU instructions; a layout conversion that goes through shared memory adds the round trip.
- tma_load: the TMA unit is held only to issue the copy; the copy's latency (bytes over the
  bandwidth one SM sees) is the op's cycles.
- load: LSU for the bytes; L2 latency on top (also the pointer loads of an ``scf.if`` node, before its own work).
  local_*/store: LSU at shared-memory bandwidth.
- tmem_load/tmem_store (Blackwell): LSU at tensor-memory bandwidth.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Callable, Mapping

from twill.errors import MachineError
from twill.graph.model import LoopGraph, Op, Reservation
from twill.ir.ttgir import layout_conversions, type_info
from twill.machine.model import Machine

# Operand element type -> tensor-core rate key of the machine file.
_TC_KEY = {"f16": "tc_flops_f16", "bf16": "tc_flops_bf16", "f32": "tc_flops_f32", "tf32": "tc_flops_f32",
           "f8E4M3FN": "tc_flops_f8", "f8E5M2": "tc_flops_f8", "f8E4M3FNUZ": "tc_flops_f8",
           "f8E5M2FNUZ": "tc_flops_f8", "i8": "tc_flops_f8"}


@dataclass(frozen=True)
class CostScale:
    """How a calibration rescales one op's model cost (``twill.machine.calibrate``): ``latency``
    multiplies its cycles, ``units`` multiplies the length (and offset) of its reservations per
    unit; a unit not named keeps the model's reservation. ``key`` names the fitted constant."""

    key: str
    latency: float
    units: tuple[tuple[str, float], ...] = ()

    def __post_init__(self) -> None:
        if not self.latency > 0 or any(not f > 0 for _, f in self.units):
            raise MachineError("calibration factor not positive", where=self.key, expected="factors > 0",
                               found=f"latency {self.latency}, units {dict(self.units)}")


def _c(x: float) -> int:
    return max(1, math.ceil(x))


def op_cost(op: Op, m: Machine) -> tuple[int, tuple[Reservation, ...]]:
    """Cycles from issue to result, and the units the op keeps busy meanwhile (its RRT).

    Examples
    --------
    >>> from twill.machine.model import load_machine
    >>> dot = Op("d", "dot", "tc", attrs=(("m", 128), ("n", 128), ("k", 128), ("a_dtype", "f16")))
    >>> op_cost(dot, load_machine("h100"))
    (1024, (Reservation(unit='tc', offset=0, length=1024, count=1),))
    """
    a = dict(op.attrs)
    elems = int(a.get("elements", 1)) or 1
    nbytes = int(a.get("bytes", 0))
    nops = int(a.get("nops", 1) or 1)
    k = op.kind
    if k == "dot":
        flops = 2 * int(a.get("m", 0)) * int(a.get("n", 0)) * int(a.get("k", 0))
        dtype = str(a.get("a_dtype", "f16"))
        if dtype not in _TC_KEY:
            raise MachineError("no tensor-core rate for operand type", where=op.where,
                               expected=" | ".join(sorted(_TC_KEY)), found=dtype)
        c = _c(flops / m.rate(_TC_KEY[dtype]))
        return c, (Reservation("tc", 0, c),)
    mufu = int(a.get("mufu", 0))     # MUFU instructions an element of the folded ops adds (a division, libdevice)
    if k == "sfu":
        arith = _c(elems * (nops - 1) / m.rate("alu_ops")) if nops > 1 else 0
        s = _c(elems * (1 + mufu) / m.rate("sfu_ops"))
        return arith + s, ((Reservation("alu", 0, arith),) if arith else ()) + (Reservation("sfu", arith, s),)
    if k == "reduce":
        busy = _c((int(a.get("input_elements", elems)) or elems) / m.rate("alu_ops"))
        return _reduce_latency(a, m, busy), (Reservation("alu", 0, busy),)
    if k in ("elementwise", "convert", "broadcast"):
        c = _c(elems * nops / m.rate("alu_ops"))
        if a.get("scan"):      # tl.cumsum / tl.associative_scan: the lane and warp exchange a reduction has too
            c += int(a["scan"]) * int(m.rate("reduce_overhead"))
        if "ttg.convert_layout" in op.ops and not any("dot_op" in line for line in op.ir):
            c += _c(2 * _moved(op, nbytes) / m.rate("smem_bytes"))   # store to and load from shared memory
        cycles, rrt = _guarded(a, m, c, "alu")
        if mufu:           # then the MUFU pipe, as an sfu op's: the ALU work feeds it element by element
            s = _c(elems * mufu / m.rate("sfu_ops"))
            return cycles + s, rrt + (Reservation("sfu", cycles, s),)
        return cycles, rrt
    if k == "tma_load":
        c = _c(nbytes / m.rate("tma_bytes"))
        return c, (Reservation("tma", 0, min(c, int(m.rate("tma_issue")))),)
    if k == "load":
        busy = _c(nbytes / m.rate("global_bytes"))
        return busy + int(m.rate("global_latency")), (Reservation("lsu", 0, busy),)
    if k in ("local_load", "local_store", "local_alloc", "store"):
        c = _c(max(nbytes, 1) / m.rate("smem_bytes"))
        return _guarded(a, m, c, "lsu") if k == "store" else (c, (Reservation("lsu", 0, c),))
    if k == "barrier":
        return 1, (Reservation("alu", 0, 1),)    # it orders; the wait for the other warps is not modelled
    if k in ("tmem_load", "tmem_store"):
        rate = m.rate("tmem_bytes")
        if rate <= 0:
            raise MachineError("op needs tensor memory, which the machine lacks", where=op.where,
                               expected="a machine with tensor memory (b200)", found=m.name)
        c = _c(nbytes / rate)
        return c, (Reservation("lsu", 0, c),)
    raise MachineError("no cost model for op kind", where=op.where, found=k)


def _reduce_latency(a: dict, m: Machine, busy: int) -> int:
    """A reduction's cycles from issue to result. Where the graph says how its input spreads along the axis
    (``twill.ir.layouts``) and the machine file has the costs measured for it (runs 161-162,
    ``bench/reduce_exchange.py``): the thread's chain of combines (or the ALU work, if longer); the shuffle rounds
    across the lanes, each ``reduce_round``, or where the CTA's warps issue more SHFLs than those rounds' latency
    covers, ``reduce_shuffle`` each (a fit of one CTA's latency: run 164 found the SM's shuffle unit far from its
    bound); where warps lie along the axis, the exchange through shared memory between barriers, ``reduce_exchange`` +
    ``reduce_exchange_sq`` x (the tile's results x warps)^2. Otherwise, and for an MMA accumulator's rows (which the
    probe did not measure; the FA forward's were measured in its kernel, the machine file's ``[written]``
    ``reduce_latency``), the ALU work and ``reduce_overhead``.

    Only where the machine file sets ``reduce_layout_cost = 1``; the shipped files set 0. The layout cost predicts
    the probe's loops (median error 7 %, against 3-60x short), but the schedules solved with it were not faster on
    the GPU (run 163a, 12 row kernels: decode attention 22 % and Liger's DyT backward 34 % longer, FLA's RWKV6 intra
    kernel past the 40 s limit, 9 within -2.4 to +3.5 %): deeper pipelines of one-partition loops whose latency
    other CTAs on the SM already hide; the per-CTA model sees the latency, not the CTAs (occupancy) it costs.

    Examples
    --------
    >>> from twill.machine.model import load_machine
    >>> h = load_machine("h200")
    >>> h = dataclasses.replace(h, rate_table=h.rate_table + (("reduce_layout_cost", 1.0),))
    >>> row = dict(reduce_thread=1, reduce_lanes=4, reduce_outputs=2, reduce_results=16, reduce_cta_warps=4,
    ...            reduce_layout="blocked")
    >>> _reduce_latency({**row, "reduce_warps": 1}, h, 2), _reduce_latency({**row, "reduce_warps": 4}, h, 2)
    (66, 275)
    """
    on = dict(m.rate_table).get("reduce_layout_cost", 0) and a.get("reduce_layout") == "blocked"
    if not on or "reduce_lanes" not in a:
        return busy + int(m.rate("reduce_overhead"))
    chain = max(busy, (int(a["reduce_thread"]) - 1) * int(m.rate("alu_latency")))
    rounds = int(math.log2(max(1, int(a["reduce_lanes"]))))
    sm_shuffles = int(a.get("reduce_cta_warps", 1)) * rounds * int(a["reduce_outputs"])   # the CTA's SHFLs
    shuffles = max(rounds * m.rate("reduce_round"), sm_shuffles * m.rate("reduce_shuffle"))
    warps = int(a.get("reduce_warps", 1))
    exchange = m.rate("reduce_exchange") + m.rate("reduce_exchange_sq") * (int(a["reduce_results"]) * warps) ** 2 \
        if warps > 1 else 0
    return _c(chain + shuffles + exchange)


def _moved(op: Op, nbytes: int) -> int:
    """The bytes ``op``'s layout conversions move through shared memory: ``nbytes`` (its result), or, where each
    conversion reads a broadcast of the same node, the broadcasts' sources (the Gluon back end converts those and
    broadcasts after, ``codegen.gluon.ops.convert_layout``: a row of scales, not the tile it is broadcast to)."""
    conversions = layout_conversions(op.ir)
    if not conversions or any(src is None for src, _ in conversions):
        return nbytes
    return sum(type_info(src).bytes for src, _ in conversions if src is not None)


def _guarded(a: dict, m: Machine, c: int, unit: str) -> tuple[int, tuple[Reservation, ...]]:
    """An op of ``c`` cycles on ``unit``; after the pointer loads of its ``scf.if`` (``guarded_load_bytes``: an if
    inside the loop that loads, then computes or stores), which hold the LSU for their bytes and wait L2's latency."""
    guarded = int(a.get("guarded_load_bytes", 0))
    flops = int(a.get("guarded_dot_flops", 0))
    tc = _c(flops / m.rate(_TC_KEY.get(str(a.get("a_dtype", "f16")), "tc_flops_f16"))) if flops else 0
    if not guarded and not tc:
        return c, (Reservation(unit, 0, c),)
    busy = _c(guarded / m.rate("global_bytes")) if guarded else 0
    wait = busy + int(m.rate("global_latency")) if guarded else 0
    dots = (Reservation("tc", wait, tc),) if tc else ()     # its dots, then the rest of its work
    if unit == "lsu":
        return wait + tc + c, (Reservation("lsu", 0, busy + c),) + dots
    return wait + tc + c, ((Reservation("lsu", 0, busy),) if busy else ()) + dots + (Reservation(unit, wait + tc, c),)


def annotate_costs(g: LoopGraph, m: Machine, profile: Mapping[str, float] | None = None,
                   scale: Callable[[Op], CostScale | None] | None = None) -> LoopGraph:
    """Every op's cycles, reservation table and cost source; every edge's delay.

    Precedence per op: the measured ``profile`` (node id -> cycles; source "profile"), else costs
    the graph file itself carried (source "graph", e.g. a graph JSON from elsewhere), else the
    machine model, rescaled by ``scale`` (a calibration's fitted factors; source "calibrated",
    the constant's name in ``attrs["calibration"]``) where it has a factor for the op, as it is
    otherwise (source "model"). A profiled op keeps the model's reservation shape, stretched
    to its measured cycles. Streaming variable-latency ops (paper 5.3: no incoming data
    dependence; they run ahead on their own warp) get zero latency, so consumers are scheduled
    by the fixed-latency ops; they still hold their unit to issue, and their latency is kept in
    ``attrs["latency_cycles"]`` for reporting. ``attrs["model_cycles"]`` is always the model's.
    An edge's delay is its source's cycles (an edge out of a graph-costed op keeps its own).

    Examples
    --------
    >>> costed = annotate_costs(graph, load_machine("h100"), profile={"dot0_qk": 980})   # doctest: +SKIP
    >>> costed.op("dot0_qk").cycles, costed.op("dot0_qk").cost_source                    # doctest: +SKIP
    (980, 'profile')
    """
    units = m.units
    ops = []
    for o in g.ops:
        attrs_extra: dict[str, str] = {}
        graph_costed = o.cost_source == "graph" and o.cycles is not None
        try:
            model_cycles, model_rrt = op_cost(o, m)
        except MachineError:
            if not graph_costed:
                raise
            model_cycles, model_rrt = None, ()   # the graph's own costs stand; the model has none
        if profile is not None and o.id in profile and model_cycles is not None:
            measured = max(0, int(round(float(profile[o.id]))))
            stretch = measured / model_cycles if model_cycles else 1.0
            rrt = tuple(dataclasses.replace(r, offset=round(r.offset * stretch),
                                            length=max(1, round(r.length * stretch)) if r.length else 0)
                        for r in model_rrt)
            cycles, source = measured, "profile"
        elif graph_costed:
            cycles, rrt, source = int(o.cycles or 0), o.rrt, "graph"
        elif scale is not None and (f := scale(o)) is not None and model_cycles is not None:
            (cycles, rrt), source = scaled(model_cycles, model_rrt, f), "calibrated"
            attrs_extra = {"calibration": f.key}
        else:
            cycles, rrt, source = int(model_cycles or 0), model_rrt, "model"
        for r in rrt:
            if r.count and units.get(r.unit, 0) < r.count:
                raise MachineError("op needs a unit the machine lacks", where=o.where,
                                   expected=f"{r.count} x {r.unit} (machine {m.name} has "
                                            f"{', '.join(f'{u}: {c}' for u, c in sorted(units.items()))})",
                                   found=f"{units.get(r.unit, 0)} x {r.unit}")
        attrs = {k: v for k, v in o.attrs if k != "calibration"} | attrs_extra
        attrs["model_cycles"] = model_cycles
        if o.streaming:
            attrs["latency_cycles"] = cycles
            cycles = 0
        ops.append(dataclasses.replace(o, cycles=cycles, rrt=rrt, cost_source=source,
                                       attrs=tuple(sorted(attrs.items()))))
    by_id = {o.id: o for o in ops}
    deps = [d if (by_id[d.src].cost_source == "graph" and d.delay is not None)
            else dataclasses.replace(d, delay=by_id[d.src].cycles) for d in g.deps]
    return dataclasses.replace(g, ops=tuple(ops), deps=tuple(deps))


def issue_factor(o: Op, m: Machine, warps: int | None) -> float:
    """How many times the model's cycles an elementwise op or a conversion that only the ALU serves takes where one
    partition of ``warps`` warps issues it alone: the machine's ``alu_issue_warps`` (its ``[written]`` table: the warps
    that issue ALU work at the SM's full rate, two a scheduler) over ``warps`` where fewer; else 1. The Gluon route's
    floor on a row split's iteration (``twill.gluon_route.issue_floor``); the schedule's costs keep the model's.
    Run 165 (H200, one CTA an SM, a [128, 64] tile): 48 dependent FMAs an element 3100 cycles an iteration at 8 warps,
    7466 at 4; Philox 6369 and 8704; AMD's dropout attention in two 4-warp consumers ran x0.57 of one 8-warp consumer,
    which the model had 5 % ahead.

    >>> from twill.machine.model import load_machine
    >>> from twill.graph.model import Op, Reservation
    >>> x = Op("elementwise0_x", "elementwise", "alu", rrt=(Reservation("alu", 0, 3072),))
    >>> h = load_machine("h200")
    >>> issue_factor(x, h, 4), issue_factor(x, h, 8), issue_factor(x, h, None)
    (2.0, 1.0, 1.0)
    """
    full = m.written_cost("alu_issue_warps") if warps else None
    if (not full or not warps or warps >= full or o.kind not in ("elementwise", "convert") or not o.rrt
            or any(r.unit != "alu" for r in o.rrt)):
        return 1.0
    return full / warps


def scaled(model_cycles: int, model_rrt: tuple[Reservation, ...], f: CostScale) -> tuple[int, tuple[Reservation, ...]]:
    """The model's cycles times ``f.latency`` (a zero stays zero) and each reservation on a unit
    ``f.units`` names, offset and length times that unit's factor.

    Examples
    --------
    >>> scaled(160, (Reservation("alu", 0, 128),), CostScale("reduce.tile", 1.5, (("alu", 1.5),)))
    (240, (Reservation(unit='alu', offset=0, length=192, count=1),))
    """
    cycles = max(1, round(model_cycles * f.latency)) if model_cycles else 0
    k = dict(f.units)
    rrt = tuple(dataclasses.replace(r, offset=round(r.offset * k[r.unit]),
                                    length=max(1, round(r.length * k[r.unit])) if r.length else 0)
                if r.unit in k else r for r in model_rrt)
    return cycles, rrt


REDUCE_TILE_PER_GROUP = 64 * 128     # elements of the 64x128 reduction the machine file's reduce_latency was measured on


def written_scale(m: Machine) -> Callable[[Op], CostScale | None]:
    """The costs of kernels twill writes itself (the machine file's ``[written]`` table) as
    ``annotate_costs``' ``scale``: a row reduction takes the measured latency, in proportion to the
    elements each 64-row warp group reduces (never less than the model), its ALU reservation the
    model's (the extra is the chain's latency, not the unit's work). None for other ops, and on a
    machine without the table.

    Examples
    --------
    >>> from twill.machine.model import load_machine
    >>> red = Op("r", "reduce", "alu", shape=(64,), attrs=(("input_elements", 8192),))
    >>> written_scale(load_machine("h200"))(red).latency > 2
    True
    """
    latency = m.written_cost("reduce_latency")

    def scale(op: Op) -> CostScale | None:
        if latency is None or op.kind != "reduce":
            return None
        model = op_cost(op, m)[0]
        rows = int(op.shape[0]) if op.shape else 64
        elems = int(dict(op.attrs).get("input_elements", 0) or 0) / max(1, math.ceil(rows / 64))
        target = latency * elems / REDUCE_TILE_PER_GROUP
        return CostScale("written.reduce_latency", target / model) if model and target > model else None
    return scale
