"""Analyses of a loop graph: recurrences (loop-carried cycles), zero-distance cycles, loop-carried values."""
from __future__ import annotations

from dataclasses import dataclass

from twill.errors import GraphError
from twill.graph.model import Dep, LoopGraph


@dataclass(frozen=True)
class Recurrence:
    """An elementary cycle of the graph: its edges in order, and their total delay and distance.

    With costs, the cycle bounds the initiation interval from below: ``II >= ceil(delay / distance)``.
    """

    ops: tuple[str, ...]
    deps: tuple[Dep, ...]
    distance: int
    delay: int | None

    @property
    def bound(self) -> int | None:
        """``ceil(delay / distance)``, or None before costs are annotated."""
        if self.delay is None or self.distance <= 0:
            return None
        return -(-self.delay // self.distance)


def recurrences(g: LoopGraph, limit: int = 10000) -> tuple[Recurrence, ...]:
    """Every elementary cycle (at most ``limit``), in a deterministic order (by first op, then length).

    Examples
    --------
    >>> [r.ops for r in recurrences(g)]                  # doctest: +SKIP
    [('elementwise0_m_ij',), ('dot1_acc', 'elementwise2_acc')]
    """
    import networkx as nx

    order = {o.id: i for i, o in enumerate(g.ops)}
    simple = nx.DiGraph()
    simple.add_nodes_from(order)
    by_pair: dict[tuple[str, str], list[Dep]] = {}
    for d in g.deps:
        simple.add_edge(d.src, d.dst)
        by_pair.setdefault((d.src, d.dst), []).append(d)
    out: list[Recurrence] = []
    for cycle in nx.simple_cycles(simple):
        # Rotate so the cycle starts at its earliest op in program order: deterministic output.
        k = min(range(len(cycle)), key=lambda i: order[cycle[i]])
        cycle = cycle[k:] + cycle[:k]
        pairs = list(zip(cycle, cycle[1:] + cycle[:1]))
        # Parallel edges between two ops: each choice is its own recurrence; keep the tightest
        # (largest delay per distance is unknown before costs, so the smallest distance).
        deps = tuple(min(by_pair[p], key=lambda d: (d.distance, -(d.delay or 0))) for p in pairs)
        dist = sum(d.distance for d in deps)
        delay = None if any(d.delay is None for d in deps) else sum(d.delay or 0 for d in deps)
        out.append(Recurrence(tuple(cycle), deps, dist, delay))
        if len(out) >= limit:
            break
    out.sort(key=lambda r: (order[r.ops[0]], len(r.ops), [order[o] for o in r.ops]))
    return tuple(out)


def check_no_zero_distance_cycle(g: LoopGraph) -> None:
    """A cycle whose distances sum to 0 has no schedule: raise GraphError naming it."""
    import networkx as nx

    intra = nx.DiGraph()
    intra.add_nodes_from(g.ids)
    intra.add_edges_from((d.src, d.dst) for d in g.deps if d.distance == 0)
    try:
        cycle = nx.find_cycle(intra)
    except nx.NetworkXNoCycle:
        return
    raise GraphError("cycle with iteration distance 0", where=g.name, expected="every cycle through a loop-carried edge",
                     found=" -> ".join(u for u, _ in cycle))


def carried(g: LoopGraph) -> tuple[Dep, ...]:
    """The loop-carried edges (distance >= 1), in graph order."""
    return tuple(d for d in g.deps if d.distance >= 1)

