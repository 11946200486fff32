"""Checker families for joint schedules (warp groups, memory, concurrency); imports nothing from twill.solve.

Everything is recomputed from the schedule by unrolling copies of the loop body explicitly (no
modular arithmetic shared with the solvers): instance i of op v issues at start[v] + i*II, a value
is live from its definition to its last use (plus the consumer's operand hold), and the steady
state is a window of II cycles late enough that every live instance in it has been issued.
The problem parameters (spill costs, limits, groups) come from the schedule's ``joint`` record,
with the machine's values as defaults.
"""
from __future__ import annotations

import math
from typing import Any

from twill.graph.model import LoopGraph
from twill.schedule.model import Schedule
from twill.schedule.violation import Violation


def joint_params(g: LoopGraph, machine: Any, s: Schedule) -> dict[str, Any]:
    """The parameters the schedule was solved under, defaults filled from the graph and machine."""
    rec = dict(s.get("joint") or {})
    mems = dict(getattr(machine, "memories", {}) or {})
    rec.setdefault("memory_capacity", {m: mems.get(m, 0) for m in ("registers", "smem", "tmem")})
    if "reg_limit_bytes" not in rec and hasattr(machine, "reg_bytes_per_warp_group"):
        rec["reg_limit_bytes"] = machine.reg_bytes_per_warp_group()
    rec.setdefault("spill", {})
    rec.setdefault("hold", {})
    rec.setdefault("busy", {o.id: o.cycles or 0 for o in g.ops})
    rec.setdefault("footprint", {"registers": {o.id: o.regs for o in g.ops}, "smem": {o.id: o.smem for o in g.ops},
                                 "tmem": {o.id: o.tmem for o in g.ops}})
    rec.setdefault("no_cross_warp", False)
    return rec


def lifetimes(g: LoopGraph, s: Schedule, hold: dict[str, int], copies: int) -> list[tuple[str, int, int, int]]:
    """``(value, copy, live_from, live_until)`` of each used value of copies 0..copies-1."""
    st = s.start_map
    out = []
    for o in g.ops:
        uses = [d for d in g.deps if d.src == o.id]
        if not uses:
            continue
        for i in range(copies):
            born = st[o.id] + i * s.ii
            last = max(st[d.dst] + (i + d.distance) * s.ii + hold.get(d.dst, 0) for d in uses)
            out.append((o.id, i, born, max(born + 1, last)))
    return out


def pressure(g: LoopGraph, s: Schedule, params: dict[str, Any]) -> dict[str, Any]:
    """Steady-state live bytes at each of the II slots: per memory, and registers per warp group.

    Examples
    --------
    >>> pressure(graph, schedule, joint_params(graph, machine, schedule))["smem"]["peak"]   # doctest: +SKIP
    65536
    """
    hold = params.get("hold", {})
    span0 = [until - born for _, _, born, until in lifetimes(g, s, hold, 1)] or [1]
    c = math.ceil((s.length + max(span0)) / s.ii) + 1
    lives = lifetimes(g, s, hold, 2 * c + 2)
    window = range(c * s.ii, (c + 1) * s.ii)
    warp = s.warp_map
    fp = params["footprint"]
    out: dict[str, Any] = {}
    for mem in ("registers", "smem", "tmem"):
        sizes = fp.get(mem, {})
        row = [sum(sizes.get(v, 0) for v, _, b, u in lives if b <= x < u) for x in window]
        out[mem] = {"per_slot": row, "peak": max(row), "capacity": params["memory_capacity"].get(mem, 0)}
    regs = fp.get("registers", {})
    per_group: dict[str, list[int]] = {}
    for grp in sorted(set(warp.values())):
        per_group[str(grp)] = [sum(regs.get(v, 0) for v, _, b, u in lives if warp.get(v) == grp and b <= x < u)
                               for x in window]
    out["registers_per_group"] = {"per_slot": per_group, "peak": {k: max(v) for k, v in per_group.items()},
                                  "limit": params.get("reg_limit_bytes")}
    out["live_copies"] = {v: max(sum(1 for w, _, b, u in lives if w == v and b <= x < u) for x in window)
                          for v in g.ids if any(w == v for w, *_ in lives)}
    return out


def verify_joint(g: LoopGraph, machine: Any, s: Schedule) -> list[Violation]:
    """Every violation of the joint families, as expected-versus-got.

    Examples
    --------
    >>> verify_joint(graph, load_machine("h100"), schedule)   # doctest: +SKIP
    []
    """
    out: list[Violation] = []
    warp, st = s.warp_map, s.start_map
    prm = joint_params(g, machine, s)
    compute, vl, issue = prm.get("compute_groups"), prm.get("vl_group"), prm.get("issue_group")
    total = (compute or 0) + (1 if vl is not None else 0) + (1 if issue is not None else 0) if compute is not None else None
    single = set(prm.get("single_warp") or ())
    for o in g.ops:                                                         # WARP UNIQUENESS
        grp = warp.get(o.id)
        if grp is None:
            out.append(Violation("warp", o.id, "one warp group", "none"))
        elif total is not None and not 0 <= grp < total:
            out.append(Violation("warp", o.id, f"a group in [0, {total})", str(grp)))
    out += [Violation("warp", k, "an op of the graph", "unknown op") for k in warp if k not in g.ids]
    out += [Violation("warp", o.id, "only single-thread-issued ops on the issue warp", f"group {issue}")
            for o in g.ops if issue is not None and warp.get(o.id) == issue and o.id not in single]
    if out:
        return out
    whole = bool(prm.get("one_partition"))     # one group of all the CTA's warps, which issue their own loads
    if whole and (compute != 1 or vl is not None):
        out.append(Violation("warp", "one partition", "one compute group and no variable-latency group",
                             f"{compute} compute group(s), variable-latency group {vl}"))
    for o in g.ops:                                                         # VARIABLE LATENCY
        if vl is None:
            if o.variable_latency and not whole:
                out.append(Violation("variable-latency", o.id, "a designated variable-latency group", "none recorded"))
        elif o.variable_latency != (warp[o.id] == vl):
            out.append(Violation("variable-latency", o.id,
                                 f"group {vl} iff variable latency (variable_latency={o.variable_latency})",
                                 f"group {warp[o.id]}"))
    spill = prm["spill"]
    is_vl = {o.id: o.variable_latency for o in g.ops}
    for d in g.deps:                                                        # CROSS-WARP SPILLS
        if d.src == d.dst or warp[d.src] == warp[d.dst]:
            continue
        if prm["no_cross_warp"] and not (is_vl[d.src] or is_vl[d.dst]):
            out.append(Violation("cross-warp", f"{d.src}->{d.dst}", "no transfer between compute groups",
                                 f"groups {warp[d.src]} -> {warp[d.dst]}"))
        need = st[d.src] + (d.delay or 0) + int(spill.get(d.src, 0))
        if st[d.dst] + s.ii * d.distance < need:
            out.append(Violation("cross-warp", f"{d.src}->{d.dst} (groups {warp[d.src]} -> {warp[d.dst]})",
                                 f"{d.dst} at >= {need - s.ii * d.distance} (delay + spill {spill.get(d.src, 0)})",
                                 str(st[d.dst])))
    for a, b in prm.get("together", []):                                  # TOGETHER
        if warp.get(a) != warp.get(b):
            out.append(Violation("together", f"{a}, {b}", "one compute group (the code after the loop reads both)",
                                 f"groups {warp.get(a)} and {warp.get(b)}"))
    out += _concurrency(g, s, prm)
    out += _group_sequence(g, s, prm)
    out += _retirement(g, s, prm)
    out += _lookahead(s, prm)
    press = pressure(g, s, prm)                                             # MEMORY CAPACITY, REGISTER LIMIT
    for mem in ("registers", "smem", "tmem"):
        cap = press[mem]["capacity"]
        if press[mem]["peak"] > cap:
            slot = press[mem]["per_slot"].index(press[mem]["peak"])
            out.append(Violation("memory", f"{mem}, slot {slot} mod {s.ii}", f"<= {cap} bytes live",
                                 str(press[mem]["peak"])))
    limit = prm.get("reg_limit_bytes")
    if limit:
        for grp, peak in press["registers_per_group"]["peak"].items():
            if peak > limit:
                out.append(Violation("register-limit", f"warp group {grp}", f"<= {limit} bytes live", str(peak)))
    reported = s.get("memory")
    if isinstance(reported, dict) and "peak" in reported:                   # the schedule's own report
        got = reported["peak"]
        want = {m: press[m]["peak"] for m in ("registers", "smem", "tmem")}
        if got != want:
            out.append(Violation("memory", "reported peak", str(want), str(got)))
    return out


def _concurrency(g: LoopGraph, s: Schedule, prm: dict[str, Any]) -> list[Violation]:
    """A blocking consumer, or a consumer of a cross-warp transfer, issues while no other op of its
    warp group executes: checked on an unrolled steady-state instance against every other instance."""
    warp, st = s.warp_map, s.start_map
    busy = {o.id: int(prm["busy"].get(o.id, o.cycles or 0)) for o in g.ops}
    waits = {d.dst for d in g.deps if d.src != d.dst and (d.blocking or warp[d.src] != warp[d.dst])}
    c = math.ceil(s.length / s.ii) + max(busy.values(), default=0) // s.ii + 2
    out = []
    for v in sorted(waits):
        when = st[v] + c * s.ii                                             # an instance deep in the steady state
        for o in g.ops:
            if o.id == v or warp[o.id] != warp[v] or busy[o.id] <= 0:
                continue
            for j in range(0, 2 * c + 1):
                began = st[o.id] + j * s.ii
                if began <= when < began + busy[o.id]:
                    out.append(Violation("concurrency", f"{v} on group {warp[v]}",
                                         "no other op of its group executing when it issues",
                                         f"{o.id} executing (start {st[o.id]} + {j - c}*II, busy {busy[o.id]}, II {s.ii})"))
                    break
    return out


def _group_sequence(g: LoopGraph, s: Schedule, prm: dict[str, Any]) -> list[Violation]:
    """A sequential problem's warp group issues one op at a time: no two busy intervals of one group's
    instances overlap (checked on unrolled instances around a steady one)."""
    if not prm.get("sequential"):
        return []
    warp, st = s.warp_map, s.start_map
    busy = {o.id: int(prm["busy"].get(o.id, o.cycles or 0)) for o in g.ops}
    c = math.ceil(s.length / s.ii) + max(busy.values(), default=0) // s.ii + 2
    out = []
    ids = [o.id for o in g.ops if busy[o.id] > 0]
    for i, v in enumerate(ids):
        if busy[v] > s.ii:
            out.append(Violation("group-sequence", f"{v} on group {warp[v]}", f"busy <= II {s.ii}", str(busy[v])))
            continue
        a0 = st[v] + c * s.ii
        for o in ids[i:]:
            if warp[o] != warp[v]:
                continue
            for j in range(0, 2 * c + 1):
                b0 = st[o] + j * s.ii
                if (o, j) == (v, c) or not (a0 < b0 + busy[o] and b0 < a0 + busy[v]):
                    continue
                out.append(Violation("group-sequence", f"{v} and {o} on group {warp[v]}",
                                     "one op at a time on a group",
                                     f"{v} busy [{st[v]}, +{busy[v]}) overlaps {o} busy [{st[o]} + {j - c}*II, "
                                     f"+{busy[o]}), II {s.ii}"))
                break
    return out


def _retirement(g: LoopGraph, s: Schedule, prm: dict[str, Any]) -> list[Violation]:
    """A warp group retires its asynchronous (in-order) dots in issue order: a reader of dot b waits for
    every in-order dot of b's group issued at or before b. Unrolled: a steady instance of b, the latest
    instance of each such a issued no later, and each reader's instance against a's completion."""
    in_order = set(prm.get("in_order") or ())
    if not in_order:
        return []
    warp, st = s.warp_map, s.start_map
    cycles = {o.id: int(o.cycles or 0) for o in g.ops}
    c = math.ceil(s.length / s.ii) + 2
    out = []
    for b in sorted(in_order):
        issued = st[b] + c * s.ii                                           # an instance deep in the steady state
        readers = sorted({(d.dst, d.distance) for d in g.deps if d.src == b and d.dst != b and d.dst not in in_order})
        for a in sorted(in_order - {b}):
            if warp.get(a) != warp.get(b):
                continue
            latest = max(st[a] + j * s.ii for j in range(0, 2 * c + 2) if st[a] + j * s.ii <= issued)
            done = latest + cycles[a]
            for d, dist in readers:
                read = st[d] + (c + dist) * s.ii
                if read < done:
                    out.append(Violation("retirement", f"{b} -> {d} on group {warp[b]}",
                                         f"{d} at >= {done - (c + dist) * s.ii} ({a}, issued {latest - issued} before "
                                         f"{b}, retires first: done at {a} + {cycles[a]})", str(st[d])))
    return out


def _lookahead(s: Schedule, prm: dict[str, Any]) -> list[Violation]:
    """On one group, dot b issues after the next instance of dot a and before that instance's readers:
    t_a + II <= t_b < t_r + II (``lookahead`` terms ``[a, b, readers]``)."""
    warp, st = s.warp_map, s.start_map
    out = []
    for a, b, readers in prm.get("lookahead") or ():
        if warp.get(a) != warp.get(b):
            continue
        late = min([st[r] + s.ii for r in readers], default=None)
        if st[b] < st[a] + s.ii or (late is not None and st[b] >= late):
            out.append(Violation("lookahead", f"{a} -> {b} on group {warp[a]}", f"{b} in [{st[a] + s.ii}, "
                                 f"{late if late is not None else 'any'}) (after {a}'s next instance, before its "
                                 "readers)", str(st[b])))
    return out


def preferences(g: LoopGraph, s: Schedule, params: dict[str, Any]) -> dict[str, int]:
    """What the joint search's preference pass minimises among equally short schedules, recomputed
    from the schedule: ``blocking_exposure``, the sum over ops that wait (a blocking edge or a
    transfer from another group) of the busy time of the other ops on their group, and
    ``crossing_values``, the edges between different groups with neither end on the
    variable-latency group. Not constraints: the checker does not hold a schedule to them.

    Examples
    --------
    >>> preferences(graph, schedule, joint_params(graph, machine, schedule))   # doctest: +SKIP
    {'blocking_exposure': 1248, 'crossing_values': 2}
    """
    warp = s.warp_map
    busy = {o.id: int(params.get("busy", {}).get(o.id, o.cycles or 0)) for o in g.ops}
    vl = {o.id for o in g.ops if o.variable_latency}
    waits = {d.dst for d in g.deps if d.src != d.dst and (d.blocking or warp[d.src] != warp[d.dst])}
    exposure = sum(busy[o.id] for v in waits for o in g.ops
                   if o.id != v and warp[o.id] == warp[v] and busy[o.id] > 0)
    crossing = sum(1 for d in g.deps if d.src != d.dst and warp[d.src] != warp[d.dst]
                   and d.src not in vl and d.dst not in vl)
    return {"blocking_exposure": exposure, "crossing_values": crossing}
