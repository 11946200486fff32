"""The independent checker: re-checks every constraint family on any schedule, from any backend.

Imports nothing from ``twill.solve`` or any solver. Each family is its own function returning
violations as expected-versus-got.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from twill.graph.model import LoopGraph
from twill.schedule.model import Schedule


@dataclass(frozen=True)
class Violation:
    family: str      # dependence | capacity | completion | coverage | warp | memory | concurrency
    where: str
    expected: str
    got: str

    def __str__(self) -> str:
        return f"{self.family} at {self.where}: expected {self.expected}, got {self.got}"


def check_coverage(g: LoopGraph, s: Schedule) -> list[Violation]:
    start = s.start_map
    out = [Violation("coverage", o.id, "a start cycle", "none") for o in g.ops if o.id not in start]
    out += [Violation("coverage", k, "an op of the graph", "unknown op") for k in start if k not in g.ids]
    out += [Violation("coverage", k, "start >= 0", str(t)) for k, t in start.items() if t < 0]
    if s.ii < 1:
        out.append(Violation("coverage", "ii", ">= 1", str(s.ii)))
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
    out = []
    for unit, row in unit_usage(g, s).items():
        cap = capacity.get(unit, 0)
        for slot, n in enumerate(row):
            if n > cap:
                who = [o.id for o in g.ops for r in o.rrt if r.unit == unit and o.id in s.start_map and
                       any((s.start_map[o.id] + r.offset + c) % s.ii == slot for c in range(r.length))]
                out.append(Violation("capacity", f"unit {unit}, slot {slot} mod {s.ii} ({', '.join(who)})",
                                     f"<= {cap} in use", str(n)))
    return out


def check_completion(g: LoopGraph, s: Schedule) -> list[Violation]:
    st = s.start_map
    return [Violation("completion", o.id, f"finish <= L = {s.length}", str(st[o.id] + (o.cycles or 0)))
            for o in g.ops if o.id in st and st[o.id] + (o.cycles or 0) > s.length]


def verify(g: LoopGraph, machine_or_capacity: Any, s: Schedule) -> list[Violation]:
    """Every violation of the modulo-schedule families (and, when the schedule carries a warp
    assignment, the joint families in ``verify_joint``).

    Examples
    --------
    >>> verify(graph, {"tc": 1, "sfu": 1}, schedule)   # doctest: +SKIP
    []
    """
    capacity = machine_or_capacity.units if hasattr(machine_or_capacity, "units") else dict(machine_or_capacity)
    out = check_coverage(g, s)
    if out:
        return out
    out += check_dependences(g, s) + check_capacity(g, capacity, s) + check_completion(g, s)
    if s.warp:
        from twill.schedule.verify_joint import verify_joint

        out += verify_joint(g, machine_or_capacity, s)
    return out
