"""Cost model: an op's cycles and reservation table from its shapes, dtypes and the machine's rates,
or from a measured profile; dependence delays are the producer's latency."""
from __future__ import annotations

import dataclasses
import math
from typing import Mapping

from twill.errors import MachineError
from twill.graph.model import LoopGraph, Op, Reservation
from twill.machine.model import Machine

_TC_KEY = {"f16": "tc_flops_f16", "bf16": "tc_flops_bf16", "f32": "tc_flops_f32", "tf32": "tc_flops_f32",
           "f8E4M3FN": "tc_flops_f8", "f8E5M2": "tc_flops_f8", "i8": "tc_flops_f8"}


def _c(x: float) -> int:
    return max(1, math.ceil(x))


def op_cost(op: Op, m: Machine) -> tuple[int, tuple[Reservation, ...]]:
    """Cycles from issue to result, and the units the op keeps busy meanwhile.

    Examples
    --------
    >>> from twill.graph.model import Op
    >>> op_cost(Op("d", "dot", "tc", attrs=(("m", 128), ("n", 128), ("k", 128), ("a_dtype", "f16"))),
    ...         load_machine("h100"))[0]
    1024
    """
    a = dict(op.attrs)
    elems = int(a.get("elements", 1)) or 1
    nbytes = int(a.get("bytes", 0))
    k = op.kind
    if k == "dot":
        flops = 2 * int(a.get("m", 0)) * int(a.get("n", 0)) * int(a.get("k", 0))
        key = _TC_KEY.get(str(a.get("a_dtype", "f16")), "tc_flops_f16")
        c = _c(flops / m.rate(key))
        return c, (Reservation("tc", 0, c),)          # the tensor core is busy for the whole GEMM
    if k == "sfu":
        # The folded arithmetic (scale, subtract) runs on the ALU first, then the MUFU pipe.
        arith = _c(elems * max(0, int(a.get("nops", 1)) - 1) / m.rate("alu_ops")) if int(a.get("nops", 1)) > 1 else 0
        s = _c(elems / m.rate("sfu_ops"))
        rrt = ((Reservation("alu", 0, arith),) if arith else ()) + (Reservation("sfu", arith, s),)
        return arith + s, rrt
    if k == "reduce":
        inp = int(a.get("input_elements", elems)) or elems
        c = _c(inp / m.rate("alu_ops")) + int(m.rate("reduce_overhead"))
        return c, (Reservation("alu", 0, _c(inp / m.rate("alu_ops"))),)
    if k in ("elementwise", "convert", "broadcast"):
        c = _c(elems * max(1, int(a.get("nops", 1))) / m.rate("alu_ops"))
        if "ttg.convert_layout" in op.ops and not any("dot_op" in line for line in op.ir):
            c += _c(2 * nbytes / m.rate("smem_bytes"))   # a general layout change goes through shared memory
        return c, (Reservation("alu", 0, c),)
    if k == "tma_load":
        c = _c(nbytes / m.rate("tma_bytes"))
        return c, (Reservation("tma", 0, min(c, int(m.rate("tma_issue")))),)   # the unit only issues
    if k == "load":
        c = _c(nbytes / m.rate("global_bytes")) + int(m.rate("global_latency"))
        return c, (Reservation("lsu", 0, _c(nbytes / m.rate("global_bytes"))),)
    if k in ("local_load", "local_store", "local_alloc", "store"):
        c = _c(max(nbytes, 1) / m.rate("smem_bytes"))
        return c, (Reservation("lsu", 0, c),)
    if k in ("tmem_load", "tmem_store"):
        rate = m.rate("tmem_bytes")
        if rate <= 0:
            raise MachineError("op needs tensor memory, which the machine lacks", where=op.where,
                               expected="a Blackwell machine (b200)", found=m.name)
        c = _c(nbytes / rate)
        return c, (Reservation("lsu", 0, c),)
    raise MachineError("no cost model for op kind", where=op.where, found=k)


def annotate_costs(g: LoopGraph, m: Machine, profile: Mapping[str, float] | None = None) -> LoopGraph:
    """Set cycles, reservations and cost sources on every op, and every edge's delay.

    ``profile`` maps node ids to measured cycles; nodes it lacks keep the model's cost. Streaming
    variable-latency ops (paper 5.3) get zero latency: they run ahead on their own warp, and their
    model cost is kept in ``attrs["model_cycles"]`` for reporting.
    """
    units = m.units
    ops = []
    for o in g.ops:
        cycles, rrt = op_cost(o, m)
        source = "model"
        if profile and o.id in profile:
            measured = max(1, int(round(float(profile[o.id]))))
            rrt = tuple(dataclasses.replace(r, length=max(1, round(r.length * measured / cycles)) if r.length else 0)
                        for r in rrt)
            cycles, source = measured, "profile"
        for r in rrt:
            if r.count and r.unit not in units:
                raise MachineError("op needs a unit the machine lacks", where=o.where,
                                   expected=" | ".join(sorted(units)), found=r.unit)
        attrs = dict(o.attrs)
        attrs["model_cycles"] = cycles
        if o.streaming:
            cycles, rrt = 0, ()
        ops.append(dataclasses.replace(o, cycles=cycles, rrt=rrt, cost_source=source,
                                       attrs=tuple(sorted(attrs.items()))))
    by_id = {o.id: o for o in ops}
    deps = [dataclasses.replace(d, delay=by_id[d.src].cycles) for d in g.deps]
    return dataclasses.replace(g, ops=tuple(ops), deps=tuple(deps))
