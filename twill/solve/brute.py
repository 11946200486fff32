"""Exhaustive modulo scheduling for tiny graphs (<= 6 ops): the reference the property tests hold
the solvers to. It shares no code with the ILP path (no bounds, no horizon, no solver).

For each II from 1 upward it enumerates every assignment of modulo slots r_v in [0, II) that fits
the units (the capacity constraint depends on the slots alone). With the slots fixed, the stages
k_v (t_v = II*k_v + r_v) must satisfy difference constraints
k_dst - k_src >= ceil((delay - II*dist + r_src - r_dst) / II); they are satisfiable iff the
constraint graph has no positive cycle, and then their least non-negative solution (longest paths,
Bellman-Ford) makes every t_v, hence the length L, as small as those slots allow. The smallest II
with any such slot assignment, and the smallest L over its assignments, are the optimum.
"""
from __future__ import annotations

from typing import Any

from twill.errors import GraphError

MAX_OPS = 6


def brute_min_ii(p: Any, max_ii: int | None = None) -> tuple[int, int, dict[str, int]] | None:
    """``(II, L, start)`` of an optimal modulo schedule of ``p`` (a ``ModuloProblem``), or None
    when no II up to ``max_ii`` admits one (default: the sequential span, where one always exists).

    Examples
    --------
    >>> from twill.graph.model import Reservation
    >>> from twill.solve.problem import ModuloProblem
    >>> gemm, exp = (Reservation("tc", 0, 1),), (Reservation("sfu", 0, 1),)
    >>> p = ModuloProblem(("S", "P", "O"), (1, 1, 1), (gemm, exp, gemm),
    ...                   ((0, 1, 1, 0), (1, 2, 1, 0), (2, 2, 1, 1)), (("sfu", 1), ("tc", 1)))
    >>> brute_min_ii(p)[:2]
    (2, 4)
    """
    n = len(p.nodes)
    if n > MAX_OPS:
        raise GraphError("graph too large for exhaustive scheduling", where=p.name,
                         expected=f"<= {MAX_OPS} ops", found=str(n))
    if max_ii is None:
        out_delay = [0] * n
        for s, _, delay, _ in p.edges:
            out_delay[s] = max(out_delay[s], delay)
        ends = [max([r.offset + r.length for r in rs] + [0]) for rs in p.rrt]
        max_ii = sum(max(c, o, e, 1) for c, o, e in zip(p.cycles, out_delay, ends))
    caps = dict(p.capacity)
    for ii in range(1, max_ii + 1):
        best = _best_at(p, ii, caps)
        if best is not None:
            return ii, best[0], {p.nodes[v]: t for v, t in enumerate(best[1])}
    return None


def _best_at(p: Any, ii: int, caps: dict[str, int]) -> tuple[int, list[int]] | None:
    n = len(p.nodes)
    # Slot usage of each op, per starting slot: [(unit, slot, count), ...]
    usage = [[[((r + res.offset + c) % ii, res.unit, res.count) for res in p.rrt[v] if res.count
               for c in range(res.length)] for r in range(ii)] for v in range(n)]
    best: list[Any] = [None, None]
    use: dict[tuple[str, int], int] = {}
    slots = [0] * n

    def place(v: int) -> None:
        if v == n:
            got = _least_schedule(p, ii, slots)
            if got is not None and (best[0] is None or got[0] < best[0]):
                best[0], best[1] = got
            return
        for r in range(ii):
            added = []
            ok = True
            for slot, unit, count in usage[v][r]:
                key = (unit, slot)
                use[key] = use.get(key, 0) + count
                added.append((key, count))
                if use[key] > caps.get(unit, 0):
                    ok = False
            if ok:
                slots[v] = r
                place(v + 1)
            for key, count in added:
                use[key] -= count

    place(0)
    return None if best[0] is None else (best[0], best[1])


def _least_schedule(p: Any, ii: int, slots: list[int]) -> tuple[int, list[int]] | None:
    """Least stages for fixed slots (longest paths); None when the recurrences forbid them."""
    n = len(p.nodes)
    cons = [(s, d, -((-(delay - ii * dist + slots[s] - slots[d])) // ii)) for s, d, delay, dist in p.edges]
    k = [0] * n
    for _ in range(n + 1):
        changed = False
        for s, d, c in cons:
            if k[s] + c > k[d]:
                k[d] = k[s] + c
                changed = True
        if not changed:
            starts = [ii * k[v] + slots[v] for v in range(n)]
            return max(t + c for t, c in zip(starts, p.cycles)), starts
    return None   # still relaxing after n+1 rounds: a positive cycle
