"""Solver-neutral problem statements. Backends read these; nothing here imports a solver."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from twill.errors import GraphError, MachineError
from twill.graph.model import LoopGraph, Reservation
from twill.solve.budget import wall_cap


@dataclass(frozen=True)
class ModuloProblem:
    """Modulo scheduling of one loop (the paper's Figure 4 without memory or warps).

    Nodes are indexed 0..n-1. ``cycles[v]`` is v's latency in schedule units (completion needs
    ``start + cycles <= L``); ``rrt[v]`` its reservations; ``edges`` are
    ``(src, dst, delay, distance)`` over node indices; ``capacity`` maps unit -> instances.
    ``stage_order`` pairs ``(a, b)`` require stage(a) <= stage(b), stage = start // II: what a
    compiler that cannot predicate some ops asks (Triton 3.6: every dot in the last compute stage).
    """

    nodes: tuple[str, ...]
    cycles: tuple[int, ...]
    rrt: tuple[tuple[Reservation, ...], ...]
    edges: tuple[tuple[int, int, int, int], ...]
    capacity: tuple[tuple[str, int], ...]
    name: str = "loop"
    stage_order: tuple[tuple[int, int], ...] = ()

    def __post_init__(self) -> None:
        n = len(self.nodes)
        if not (len(self.cycles) == len(self.rrt) == n):
            raise GraphError("problem arrays disagree in length", where=self.name)
        if any(not (0 <= a < n and 0 <= b < n) for a, b in self.stage_order):
            raise GraphError("bad stage order pair", where=self.name, found=str(self.stage_order))
        caps = dict(self.capacity)
        for v, rs in enumerate(self.rrt):
            for r in rs:
                if r.count and r.unit not in caps:
                    raise MachineError("op needs a unit the machine lacks", where=f"{self.name}: {self.nodes[v]}",
                                       expected=" | ".join(sorted(caps)) or "no units", found=r.unit)
                if r.count > caps.get(r.unit, 0):
                    raise MachineError("op needs more unit instances than the machine has",
                                       where=f"{self.name}: {self.nodes[v]}",
                                       expected=f"<= {caps.get(r.unit, 0)} x {r.unit}", found=str(r.count))
        for s, d, delay, dist in self.edges:
            if not (0 <= s < n and 0 <= d < n) or delay < 0 or dist < 0:
                raise GraphError("bad edge", where=self.name, found=str((s, d, delay, dist)))

    @property
    def n(self) -> int:
        return len(self.nodes)

    @property
    def cap(self) -> dict[str, int]:
        return dict(self.capacity)

    @classmethod
    def from_graph(cls, g: LoopGraph, capacity: dict[str, int],
                   stage_order: tuple[tuple[str, str], ...] = ()) -> "ModuloProblem":
        """The problem of a costed graph (every op has cycles, every edge a delay); ``stage_order``
        by node id."""
        if not g.costed:
            missing = [o.id for o in g.ops if o.cycles is None][:5]
            raise GraphError("graph has no costs", where=g.name, expected="costs on every op and edge",
                             found=f"uncosted {', '.join(missing) or 'edges'}")
        index = {o.id: i for i, o in enumerate(g.ops)}
        return cls(nodes=g.ids, cycles=tuple(int(o.cycles or 0) for o in g.ops),
                   rrt=tuple(o.rrt for o in g.ops),
                   edges=tuple((index[d.src], index[d.dst], int(d.delay or 0), d.distance) for d in g.deps),
                   capacity=tuple(sorted(capacity.items())), name=g.name,
                   stage_order=tuple((index[a], index[b]) for a, b in stage_order))


@dataclass(frozen=True)
class ModuloAtII:
    """One step of the modulo search: ``problem`` at a fixed ``ii``, with every start time and the
    length L bounded by ``horizon`` (see ``twill.solve.bounds.horizon`` for why that is sound, or the
    length of a schedule already known at ``ii``); ``hint`` that schedule's start per node, if any."""

    problem: ModuloProblem
    ii: int
    horizon: int
    hint: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.ii < 1 or self.horizon < 0:
            raise GraphError("bad fixed-II problem", where=self.problem.name,
                             expected="ii >= 1 and horizon >= 0", found=f"ii={self.ii}, horizon={self.horizon}")


@dataclass(frozen=True)
class ModuloIIRange:
    """The modulo search over a range of IIs in one model: the smallest ``ii`` in [lo, hi] that
    admits a schedule (the ``ii_range`` feature of a backend, ``twill.solve.backends``; the
    lengths are then solved at that II alone)."""

    problem: ModuloProblem
    lo: int
    hi: int

    def __post_init__(self) -> None:
        if not 1 <= self.lo <= self.hi:
            raise GraphError("bad II range", where=self.problem.name, expected="1 <= lo <= hi",
                             found=f"[{self.lo}, {self.hi}]")


@dataclass(frozen=True)
class CostNormalization:
    """The cost normalisation of section 5.2 (``twill.solve.normalize``): integer units C' in
    [1, bound] for the distinct positive costs ``values`` C, with sum C' <= bound, minimising
    F >= |C[i] C'[j] - C[j] C'[i]| over every pair; among the least F, the largest sum."""

    values: tuple[int, ...]
    bound: int


@dataclass(frozen=True)
class Solution:
    """What a backend returns: a status from ``twill.schedule.model.STATUSES``, the values it found
    (backend-neutral: e.g. ``{"start": {...}, "length": L}``) and stats (times, bounds, gap)."""

    status: str
    values: dict[str, Any] = field(default_factory=dict)
    stats: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SolveOptions:
    """One solver call's limits: ``time_limit`` deterministic seconds of the solver's own work (the limit that
    makes a result the same on every machine, ``twill.solve.budget``) and ``wall_limit`` wall seconds, a safety
    cap for pathological cases (None: ``budget.wall_cap(time_limit)``); ``threads`` workers, which CP-SAT does
    not take (one worker, the only deterministic setting that does not abort: ``cpsat_base.cpsat_solver``); ``seed``."""

    time_limit: float = 60.0   # deterministic seconds per solver call
    threads: int = 1            # solver workers: CP-SAT always runs one (backends.cpsat_base.cpsat_solver)
    seed: int = 0
    wall_limit: float | None = None     # wall seconds: the safety cap

    @property
    def wall_seconds(self) -> float:
        """The wall-clock safety cap of this call, in seconds."""
        return self.wall_limit if self.wall_limit is not None else wall_cap(self.time_limit)


def slot_coefficients(rrt: tuple[Reservation, ...], unit: str, ii: int) -> dict[tuple[int, int], int]:
    """``{(r, s): instances of unit}`` an op issued in modulo slot r holds in slot s.

    This is Figure 4's CAPACITY row ``sum_c op[v, i, t - c] * RRT[v][f, c]`` folded modulo II:
    reservation cycle c of an op issued at t falls in slot (t + offset + c) mod II, and a
    reservation longer than II wraps onto itself (counted once per wrap).
    """
    out: dict[tuple[int, int], int] = {}
    for res in rrt:
        if res.unit != unit or not res.count or not res.length:
            continue
        for r in range(ii):
            for c in range(res.length):
                s = (r + res.offset + c) % ii
                out[(r, s)] = out.get((r, s), 0) + res.count
    return out
