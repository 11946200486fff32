"""Checker families for joint schedules (warp assignment): imports nothing from twill.solve."""
from __future__ import annotations

from typing import Any

from twill.graph.model import LoopGraph
from twill.schedule.model import Schedule


def verify_joint(g: LoopGraph, machine: Any, s: Schedule) -> list:
    from twill.schedule.verify import Violation

    out = []
    warp, st = s.warp_map, s.start_map
    for o in g.ops:                                                         # WARP UNIQUENESS
        if o.id not in warp:
            out.append(Violation("warp", o.id, "a warp group", "none"))
    if out:
        return out
    groups = s.get("warp_groups") or {}
    vl = groups.get("variable_latency")
    if vl is not None:                                                      # VARIABLE LATENCY
        for o in g.ops:
            if o.variable_latency != (warp[o.id] == vl):
                out.append(Violation("warp", o.id, f"variable-latency ops, and only they, on group {vl}",
                                     f"group {warp[o.id]} (variable_latency={o.variable_latency})"))
    delays = {(c["src"], c["dst"]): c["delay"] for c in s.get("cross_warp") or []}
    for d in g.deps:                                                        # CROSS-WARP SPILLS
        if d.src != d.dst and warp[d.src] != warp[d.dst]:
            need = st[d.src] + (d.delay or 0) + delays.get((d.src, d.dst), 1)
            if st[d.dst] + s.ii * d.distance < need:
                out.append(Violation("cross-warp", f"{d.src}->{d.dst}",
                                     f"{d.dst} at >= {need - s.ii * d.distance} (transfer delay)", str(st[d.dst])))
    # CONCURRENCY: a blocking consumer does not start while another op of its group executes.
    blocking = {d.dst for d in g.deps if d.blocking and d.src != d.dst}
    async_kinds = {"dot", "tma_load", "load"}
    for v in g.ops:
        if v.id not in blocking:
            continue
        for o in g.ops:
            if o.id == v.id or warp[o.id] != warp[v.id] or not o.cycles:
                continue
            busy = 1 if o.kind in async_kinds else o.cycles
            if busy >= s.ii or (st[v.id] - st[o.id]) % s.ii < busy:
                out.append(Violation("concurrency", f"{v.id} on group {warp[v.id]}",
                                     f"no other op of the group executing when it starts",
                                     f"{o.id} busy (start {st[o.id]}, {busy} units, II {s.ii})"))
    # REGISTER LIMIT, recomputed from the schedule: ceil(lifetime / II) copies of each value.
    limit = (s.get("memory") or {}).get("registers", {}).get("per_wg_limit")
    if limit:
        per: dict[int, int] = {}
        for o in g.ops:
            ends = [st[d.dst] + s.ii * d.distance for d in g.deps if d.src == o.id] + [st[o.id] + max(1, o.cycles or 0)]
            copies = -(-(max(ends) - st[o.id]) // s.ii)
            per[warp[o.id]] = per.get(warp[o.id], 0) + o.regs * copies
        for gid, b in per.items():
            if b > limit:
                out.append(Violation("memory", f"registers of group {gid}", f"<= {limit} bytes", str(b)))
    return out
