"""The independent checker: re-checks every constraint family on any schedule, from any backend.

Imports nothing from ``twill.solve`` or any solver. Each family is its own function
``check_<family>(graph, [capacity,] schedule) -> list[Violation]``, violations expected-versus-got;
``verify`` runs them all (and the joint families of ``verify_joint`` when the schedule has warps).
The imports run one way: ``violation`` <- ``verify_joint`` <- ``verify`` <- ``text``.
"""
from __future__ import annotations

from typing import Any, Mapping

from twill.graph.model import Dep, LoopGraph, Op
from twill.schedule.model import Schedule
from twill.schedule.verify_joint import verify_joint
from twill.schedule.violation import Violation


def as_graph(obj: Any) -> LoopGraph:
    """A LoopGraph, or a problem-like object with ``nodes``, ``cycles``, ``rrt`` and ``edges``
    (``(src index, dst index, delay, distance)``, as ``ModuloProblem`` has) read field by field."""
    if isinstance(obj, LoopGraph):
        return obj
    ops = tuple(Op(n, "elementwise", rrt[0].unit if rrt else "alu", cycles=int(c), rrt=tuple(rrt), cost_source="graph")
                for n, c, rrt in zip(obj.nodes, obj.cycles, obj.rrt))
    deps = tuple(Dep(obj.nodes[a], obj.nodes[b], int(delay), int(dist)) for a, b, delay, dist in obj.edges)
    return LoopGraph(getattr(obj, "name", "loop"), ops, deps)


def check_coverage(g: LoopGraph, s: Schedule) -> list[Violation]:
    """Every op has a start >= 0, no unknown op is scheduled, II >= 1, every op and edge is costed."""
    start = s.start_map
    out = [Violation("coverage", o.id, "a start cycle", "none") for o in g.ops if o.id not in start]
    out += [Violation("coverage", k, "an op of the graph", "unknown op") for k in start if k not in g.ids]
    out += [Violation("coverage", k, "start >= 0", str(t)) for k, t in start.items() if t < 0]
    if s.ii < 1:
        out.append(Violation("coverage", "ii", ">= 1", str(s.ii)))
    out += [Violation("coverage", o.id, "a cycle count (costed graph)", "none") for o in g.ops if o.cycles is None]
    out += [Violation("coverage", f"{d.src}->{d.dst}", "a delay (costed graph)", "none") for d in g.deps
            if d.delay is None]
    return out


def check_dependences(g: LoopGraph, s: Schedule) -> list[Violation]:
    """Instance i of dst issues >= delay after instance i - distance of src:
    start[dst] + ii * distance >= start[src] + delay."""
    st = s.start_map
    out = []
    for d in g.deps:
        if d.src not in st or d.dst not in st:
            continue
        lhs, rhs = st[d.dst] + s.ii * d.distance, st[d.src] + (d.delay or 0)
        if lhs < rhs:
            out.append(Violation("dependence", f"{d.src}->{d.dst} (distance {d.distance})",
                                 f"{d.dst} issues at >= {rhs - s.ii * d.distance}", f"{st[d.dst]}"))
    return out


def unit_usage(g: LoopGraph, s: Schedule) -> dict[str, list[int]]:
    """Steady-state usage of each unit in each of the ii modulo slots (the modular RRT)."""
    st = s.start_map
    use: dict[str, list[int]] = {}
    for o in g.ops:
        if o.id not in st:
            continue
        for r in o.rrt:
            row = use.setdefault(r.unit, [0] * s.ii)
            for c in range(r.length):
                row[(st[o.id] + r.offset + c) % s.ii] += r.count
    return use


def check_capacity(g: LoopGraph, capacity: Mapping[str, int], s: Schedule) -> list[Violation]:
    """In every modulo slot, the instances of each unit in use (summed over all iterations in
    flight) are at most the unit's capacity; a unit the machine lacks has capacity 0."""
    out = []
    for unit, row in unit_usage(g, s).items():
        cap = capacity.get(unit, 0)
        for slot, n in enumerate(row):
            if n > cap:
                who = [o.id for o in g.ops for r in o.rrt if r.unit == unit and o.id in s.start_map and
                       any((s.start_map[o.id] + r.offset + c) % s.ii == slot for c in range(r.length))]
                out.append(Violation("capacity", f"unit {unit}, slot {slot} mod {s.ii} ({', '.join(who)})",
                                     f"<= {cap} in use" + ("" if unit in capacity else " (no such unit)"), str(n)))
    return out


def check_completion(g: LoopGraph, s: Schedule) -> list[Violation]:
    """Every op finishes within the schedule length: start + cycles <= L."""
    st = s.start_map
    return [Violation("completion", o.id, f"finish <= L = {s.length}", str(st[o.id] + (o.cycles or 0)))
            for o in g.ops if o.id in st and st[o.id] + (o.cycles or 0) > s.length]


def check_stage_order(s: Schedule) -> list[Violation]:
    """The compiler's stage-order pairs the schedule was solved under (``extra["stage_order"]``,
    ``[[a, b], ...]``): stage(a) = start(a) // II <= stage(b)."""
    st = s.start_map
    out = []
    for a, b in s.get("stage_order") or ():
        if a in st and b in st and st[a] // s.ii > st[b] // s.ii:
            out.append(Violation("stage order", f"{a} before {b}", f"stage({a}) <= stage({b}) = {st[b] // s.ii}",
                                 str(st[a] // s.ii)))
    return out


def verify(g: Any, machine_or_capacity: Any, s: Schedule) -> list[Violation]:
    """Every violation of the modulo-schedule families (and, when the schedule carries a warp
    assignment, the joint families in ``verify_joint``).

    ``g`` is a costed LoopGraph (or a problem-like object, see ``as_graph``) in the schedule's
    time unit; ``machine_or_capacity`` a Machine or a ``{unit: capacity}`` mapping.

    Examples
    --------
    >>> from twill.graph.model import Reservation
    >>> g = LoopGraph("fig1", (Op("S", "dot", "tc", cycles=1, rrt=(Reservation("tc", 0, 1),)),
    ...                        Op("O", "dot", "tc", cycles=1, rrt=(Reservation("tc", 0, 1),))),
    ...               (Dep("S", "O", 1, 0),))
    >>> verify(g, {"tc": 1}, Schedule(ii=2, length=4, start=(("S", 0), ("O", 3)), status="feasible", lower_bound=2))
    []
    >>> [str(v) for v in verify(g, {"tc": 1}, Schedule(ii=2, length=4, start=(("S", 0), ("O", 2)),
    ...                                                  status="feasible", lower_bound=2))]
    ['capacity at unit tc, slot 0 mod 2 (S, O): expected <= 1 in use, got 2']
    """
    g = as_graph(g)
    capacity = machine_or_capacity.units if hasattr(machine_or_capacity, "units") else dict(machine_or_capacity)
    out = check_coverage(g, s)
    if out:
        return out
    out += check_dependences(g, s) + check_capacity(g, capacity, s) + check_completion(g, s) + check_stage_order(s)
    if s.warp:
        out += verify_joint(g, machine_or_capacity, s)
    return out
