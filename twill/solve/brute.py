"""Brute-force modulo scheduling for tiny graphs: the reference the property tests compare with."""
from __future__ import annotations

import itertools

from twill.schedule.model import OPTIMAL, Schedule
from twill.solve.bounds import horizon, mii
from twill.solve.problem import ModuloProblem


def brute_min_ii(p: ModuloProblem, max_ii: int = 30) -> tuple[int, int] | None:
    """(smallest II, shortest L at it) by enumerating every start-time vector within the horizon."""
    lb = mii(p)[0]
    caps = p.cap
    for ii in range(lb, max_ii + 1):
        h = horizon(p, ii)
        best = None
        for starts in itertools.product(range(h + 1), repeat=p.n):
            if starts[0] != 0 and all(s > 0 for s in starts):
                continue   # some op can always start at 0 (shift invariance)
            if any(starts[d] + ii * dist < starts[s] + delay for s, d, delay, dist in p.edges):
                continue
            use: dict[tuple[str, int], int] = {}
            ok = True
            for v, rs in enumerate(p.rrt):
                for r in rs:
                    for c in range(r.length):
                        key = (r.unit, (starts[v] + r.offset + c) % ii)
                        use[key] = use.get(key, 0) + r.count
                        if use[key] > caps[r.unit]:
                            ok = False
            if not ok:
                continue
            length = max(s + c for s, c in zip(starts, p.cycles))
            best = length if best is None else min(best, length)
        if best is not None:
            return ii, best
    return None


def as_schedule(p: ModuloProblem, ii: int, length: int) -> Schedule:
    return Schedule(ii=ii, length=length, start=(), status=OPTIMAL, lower_bound=ii, backend="brute")
