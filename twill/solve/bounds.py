"""Lower bounds on the initiation interval: ResMII (unit usage) and RecMII (recurrences)."""
from __future__ import annotations

import math

import networkx as nx

from twill.errors import GraphError
from twill.solve.problem import ModuloProblem


def res_mii(p: ModuloProblem) -> int:
    """max over units of ceil(reserved unit-cycles per iteration / capacity)."""
    use: dict[str, int] = {}
    for rs in p.rrt:
        for r in rs:
            use[r.unit] = use.get(r.unit, 0) + r.length * r.count
    caps = p.cap
    return max([1] + [math.ceil(u / caps[unit]) for unit, u in use.items() if caps.get(unit)])


def rec_mii(p: ModuloProblem) -> int:
    """max over dependence cycles of ceil(sum delay / sum distance); a cycle of distance 0 with
    positive delay is infeasible at every II (GraphError naming it)."""
    g = nx.MultiDiGraph()
    g.add_nodes_from(range(p.n))
    for s, d, delay, dist in p.edges:
        g.add_edge(s, d, delay=delay, dist=dist)
    # A zero-distance cycle: a cycle in the subgraph of distance-0 edges.
    zero = nx.DiGraph([(s, d) for s, d, _, dist in p.edges if dist == 0])
    try:
        cyc = nx.find_cycle(zero)
    except (nx.NetworkXNoCycle, nx.NetworkXError):
        cyc = None
    if cyc:
        names = [p.nodes[a] for a, _ in cyc] + [p.nodes[cyc[0][0]]]
        raise GraphError("dependence cycle with total iteration distance 0: infeasible at every II",
                         where=p.name, found=" -> ".join(names))
    # Smallest II with no positive cycle in weights delay - II * dist: binary search (monotone).
    lo, hi = 1, max(1, sum(delay for _, _, delay, _ in p.edges) + 1)
    if _feasible(p, hi) is False:   # cannot happen once zero-distance cycles are excluded
        raise GraphError("recurrences unsatisfiable", where=p.name)
    while lo < hi:
        mid = (lo + hi) // 2
        if _feasible(p, mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def _feasible(p: ModuloProblem, ii: int) -> bool:
    """No positive cycle under weights delay - ii*dist (Bellman-Ford on negated weights)."""
    g = nx.DiGraph()
    g.add_nodes_from(range(p.n))
    for s, d, delay, dist in p.edges:
        w = -(delay - ii * dist)
        if g.has_edge(s, d):
            w = min(w, g[s][d]["weight"])
        g.add_edge(s, d, weight=w)
    return not nx.negative_edge_cycle(g, weight="weight")


def mii(p: ModuloProblem) -> tuple[int, int, int]:
    """(MII, ResMII, RecMII)."""
    r, c = res_mii(p), rec_mii(p)
    return max(r, c), r, c


def horizon(p: ModuloProblem, ii: int) -> int:
    """A sound upper bound on the optimal schedule length at ``ii``.

    Fix any feasible schedule's slots r_v = t_v mod ii; the stage counts k_v then satisfy difference
    constraints whose least solution is a longest path over distinct nodes, each edge adding at
    most delay/ii + 2 stages. So some schedule with the same slots has every t_v <= 2*ii*n + sum of
    delays along a simple path (<= sum of cycles, delays being producer latencies, or the largest
    delays when they are not), and its length is at most that plus the longest op.
    """
    delays = sorted((delay for _, _, delay, _ in p.edges), reverse=True)[: max(0, p.n - 1)]
    return 2 * ii * p.n + max(sum(p.cycles), sum(delays)) + max(p.cycles + (0,))
