"""Bounds for the modulo search: MII = max(ResMII, RecMII), the largest II worth trying, and a
sound horizon on the schedule length at a given II."""
from __future__ import annotations

import math

import networkx as nx

from twill.errors import GraphError
from twill.solve.problem import ModuloProblem


def res_mii(p: ModuloProblem) -> int:
    """Resource bound: max over units of ceil(unit-cycles reserved per iteration / capacity).

    Examples
    --------
    >>> from twill.graph.model import Reservation
    >>> p = ModuloProblem(("a", "b"), (2, 3), ((Reservation("tc", 0, 2),), (Reservation("tc", 0, 3),)),
    ...                   (), (("tc", 1),))
    >>> res_mii(p)
    5
    """
    use: dict[str, int] = {}
    for rs in p.rrt:
        for r in rs:
            use[r.unit] = use.get(r.unit, 0) + r.length * r.count
    caps = p.cap
    return max([1] + [math.ceil(u / caps[unit]) for unit, u in use.items() if caps.get(unit)])


def zero_distance_cycle(p: ModuloProblem) -> list[str] | None:
    """Op names of a dependence cycle whose iteration distances sum to 0 (``[a, b, a]``), or None.

    Such a cycle asks an op to issue after itself within one iteration: with a positive total
    delay no II satisfies it; with zero delay it is not a loop body in SSA form either.
    A cycle with positive delay is preferred when there is one, since it is the real infeasibility.
    """
    zero = nx.DiGraph()
    zero.add_nodes_from(range(p.n))
    for s, d, delay, dist in p.edges:
        if dist == 0:
            w = max(delay, zero[s][d]["delay"]) if zero.has_edge(s, d) else delay
            zero.add_edge(s, d, delay=w)
    for comp in nx.strongly_connected_components(zero):
        sub = zero.subgraph(comp)
        if len(comp) == 1 and not sub.has_edge(next(iter(comp)), next(iter(comp))):
            continue
        # Close the cycle through the heaviest edge of the component (positive delay if any).
        s, d, _ = max(sub.edges(data="delay"), key=lambda e: e[2])
        cyc = [s, s] if s == d else [s] + nx.shortest_path(sub, d, s)   # s -> d -> ... -> s
        return [p.nodes[v] for v in cyc]
    return None


def rec_mii(p: ModuloProblem) -> int:
    """Recurrence bound: max over dependence cycles of ceil(sum delay / sum distance).

    It is the smallest integer II with no positive cycle under edge weights
    ``delay - II * distance``, found by binary search with Bellman-Ford (feasibility is monotone
    in II). A cycle of total distance 0 raises GraphError naming its ops.

    Examples
    --------
    >>> from twill.graph.model import Reservation
    >>> p = ModuloProblem(("a", "b"), (3, 4), ((), ()), ((0, 1, 3, 0), (1, 0, 4, 2)), ())
    >>> rec_mii(p)     # (3 + 4) / 2, rounded up
    4
    """
    cyc = zero_distance_cycle(p)
    if cyc is not None:
        delay = _cycle_delay(p, cyc)
        what = ("dependence cycle with total iteration distance 0: infeasible at every II" if delay > 0 else
                "dependence cycle with total iteration distance 0 (not a loop body in SSA form)")
        raise GraphError(what, where=p.name, expected="every cycle to carry a loop iteration (distance >= 1)",
                         found=" -> ".join(cyc) + f" (delay {delay}, distance 0)")
    # Every cycle has distance >= 1, so II = total delay + 1 exceeds every cycle's ratio.
    lo, hi = 1, max(1, sum(delay for _, _, delay, _ in p.edges) + 1)
    while lo < hi:
        mid = (lo + hi) // 2
        if recurrences_hold(p, mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def _cycle_delay(p: ModuloProblem, cyc: list[str]) -> int:
    idx = {n: i for i, n in enumerate(p.nodes)}
    total = 0
    for a, b in zip(cyc, cyc[1:]):
        total += max(delay for s, d, delay, dist in p.edges if s == idx[a] and d == idx[b] and dist == 0)
    return total


def recurrences_hold(p: ModuloProblem, ii: int) -> bool:
    """True when no dependence cycle has sum(delay) > ii * sum(distance) (Bellman-Ford)."""
    g = nx.DiGraph()
    g.add_nodes_from(range(p.n))
    for s, d, delay, dist in p.edges:
        w = ii * dist - delay          # negated "delay - ii*dist": a positive cycle becomes negative
        if g.has_edge(s, d):
            w = min(w, g[s][d]["weight"])
        g.add_edge(s, d, weight=w)
    return not nx.negative_edge_cycle(g, weight="weight")


def stage_order_mii(p: ModuloProblem) -> int:
    """The II a compiler's stage order forces (0 without one). For a pair stage(a) <= stage(b) and a
    distance-0 path b -> a of total delay D: t_a >= t_b + D, and t_a <= (stage(b) + 1) II - 1 <= t_b + II - 1,
    so II >= D + 1 (Triton 3.6: every compute op after a dot in the same iteration must start within
    one II of that dot)."""
    if not p.stage_order:
        return 0
    succ: dict[int, list[tuple[int, int]]] = {}
    indeg = [0] * p.n
    for s_, d, delay, dist in p.edges:
        if dist == 0 and s_ != d:
            succ.setdefault(s_, []).append((d, delay))
            indeg[d] += 1
    order, queue = [], [v for v in range(p.n) if indeg[v] == 0]
    while queue:                                  # topological order of the distance-0 edges
        v = queue.pop()
        order.append(v)
        for d, _ in succ.get(v, ()):
            indeg[d] -= 1
            if indeg[d] == 0:
                queue.append(d)
    best = 0
    for b in {b for _, b in p.stage_order}:
        far = {b: 0}                              # longest distance-0 path delay from b
        for v in order:
            if v in far:
                for d, delay in succ.get(v, ()):
                    far[d] = max(far.get(d, 0), far[v] + delay)
        best = max([best] + [far[a] + 1 for a, bb in p.stage_order if bb == b and a in far and a != b])
    return best


def mii(p: ModuloProblem) -> tuple[int, int, int]:
    """``(MII, ResMII, RecMII)``: no II below MII admits a schedule (MII also covers a compiler's stage
    order, ``stage_order_mii``)."""
    r, c = res_mii(p), rec_mii(p)
    return max(r, c, stage_order_mii(p)), r, c


def sequential_span(p: ModuloProblem) -> int:
    """An II at which a schedule surely exists (when every op's reservations fit its own slot).

    Lay one iteration out sequentially in a topological order of the distance-0 edges, op v
    taking ``w_v = max(cycles_v, its largest outgoing delay, end of its last reservation, 1)``
    units; the span T is the sum of the w_v. At II >= T: distance-0 edges hold by the order; an
    edge of distance >= 1 holds since t_dst + II >= II >= T >= t_src + delay; each op's
    reservations lie in its own interval of [0, T), so no two ops share a modulo slot.
    The search need never go past ``max(MII, T)``.
    """
    out_delay = [0] * p.n
    for s, _, delay, _ in p.edges:
        out_delay[s] = max(out_delay[s], delay)
    ends = [max([r.offset + r.length for r in rs if r.count and r.length] + [0]) for rs in p.rrt]
    return sum(max(c, o, e, 1) for c, o, e in zip(p.cycles, out_delay, ends))


def horizon(p: ModuloProblem, ii: int) -> int:
    """A sound upper bound on the optimal schedule length L at ``ii``.

    Take any schedule feasible at ``ii``, t_v = ii*k_v + r_v with slot r_v in [0, ii). Capacity
    depends on the slots only. With the slots fixed, the stages must satisfy difference
    constraints k_dst - k_src >= c_e = ceil((delay - ii*dist + r_src - r_dst) / ii) <=
    ceil(delay/ii) + 1; the system is feasible (the schedule satisfies it), so it has no positive
    cycle and its least non-negative solution is a longest path of at most n-1 edges from a
    virtual source (negative c_e only shorten it). Since ii*(ceil(delay/ii) + 1) <= delay + 2*ii - 1,
    some schedule with the same slots has t_v <= (n-1)*(2*ii - 1) + D + ii - 1 < 2*ii*n + D, where
    D is the sum of the n-1 largest edge delays, and its length is below 2*ii*n + D + max cycles.
    Every t_v of an optimal schedule is at most L - cycles_v, so bounding t and L by this value
    cuts off no optimum.

    Examples
    --------
    >>> p = ModuloProblem(("a",), (2,), ((),), (), ())
    >>> horizon(p, 3)
    8
    """
    delays = sorted((delay for _, _, delay, _ in p.edges), reverse=True)[: max(0, p.n - 1)]
    return 2 * ii * p.n + sum(delays) + max(p.cycles + (0,))


def schedule_from_slots(p: ModuloProblem, ii: int, slots: dict[int, int]) -> dict[int, int] | None:
    """Start times at ``ii`` with the given modulo slots and the least stages, or None when the
    slots admit none (a dependence cycle that the slots make positive).

    With r_v fixed, t_v = ii k_v + r_v meets every edge iff k_dst - k_src >= ceil((delay -
    ii dist + r_src - r_dst) / ii), and every stage-order pair iff k_a <= k_b: difference
    constraints, whose least non-negative solution is a longest path (Bellman-Ford). CAPACITY
    depends on the slots alone, so slots that meet it give a schedule whose length bounds the
    optimal L at ``ii`` from above (``twill.solve.modulo`` uses it as the horizon and the hint).

    Examples
    --------
    >>> p = ModuloProblem(("a", "b"), (3, 1), ((), ()), ((0, 1, 3, 0),), ())
    >>> schedule_from_slots(p, 2, {0: 1, 1: 0})      # b waits for a: t_b >= 1 + 3, slot 0 -> 4
    {0: 1, 1: 4}
    """
    rules = [(s, d, -(-(delay - ii * dist + slots[s] - slots[d]) // ii)) for s, d, delay, dist in p.edges]
    rules += [(a, b, 0) for a, b in p.stage_order]
    k = {v: 0 for v in range(p.n)}
    for _ in range(p.n + 1):
        changed = False
        for s, d, step in rules:
            if k[d] < k[s] + step:
                k[d] = k[s] + step
                changed = True
        if not changed:
            return {v: ii * k[v] + slots[v] for v in range(p.n)}
    return None
