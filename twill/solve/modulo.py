"""Optimal modulo scheduling: the smallest II from MII upward, each solved exactly (Figure 4)."""
from __future__ import annotations

import time

from twill.schedule.model import FEASIBLE, INFEASIBLE, OPTIMAL, TIMEOUT, Schedule
from twill.solve.backends import get_backend
from twill.solve.bounds import horizon, mii
from twill.solve.problem import ModuloProblem, SolveOptions


def modulo_schedule(p: ModuloProblem, backend: str = "cpsat", options: SolveOptions = SolveOptions(),
                    max_ii: int | None = None, min_ii: int | None = None) -> Schedule:
    """The modulo schedule with the smallest II, and the shortest length at that II.

    Status is ``optimal`` only if every II below the one found was proved infeasible (or the II is
    the lower bound MII) and the length was proved optimal; a timed-out II makes the result
    ``feasible`` with the gap recorded; no schedule at all is ``timeout`` (or ``infeasible`` when
    every II up to ``max_ii`` was proved infeasible).

    Examples
    --------
    >>> s = modulo_schedule(problem, "cpsat")   # doctest: +SKIP
    >>> s.ii, s.length, s.status                # doctest: +SKIP
    (2, 4, 'optimal')
    """
    solver = get_backend(backend)
    t0 = time.perf_counter()
    lb, res, rec = mii(p)
    t_bounds = time.perf_counter() - t0
    ii = max(lb, min_ii or 1)
    # II = sum of all reserved cycles (each op alone in its own window) is always feasible for capacity,
    # and II >= RecMII satisfies recurrences: no search goes past that.
    cap_ii = max(lb, sum(r.length for rs in p.rrt for r in rs) + 1, max(p.cycles + (1,)))
    limit = min(max_ii, cap_ii) if max_ii else cap_ii
    trace = []
    proved_below = True
    while ii <= limit:
        h = horizon(p, ii)
        sol = solver.solve(p, ii, h, options)
        trace.append({"ii": ii, "result": sol.status, "seconds": round(sol.stats["seconds"], 4),
                      "length": sol.values.get("length"), "horizon": h})
        if sol.status in (OPTIMAL, FEASIBLE):
            status = OPTIMAL if (proved_below and sol.status == OPTIMAL) else FEASIBLE
            gap = None
            if status == FEASIBLE:
                first_open = next((t["ii"] for t in trace if t["result"] == TIMEOUT), ii)
                gap = {"ii_lower_bound": first_open, "length_lower_bound": sol.stats.get("bound")}
            lower = lb if proved_below else next(t["ii"] for t in trace if t["result"] == TIMEOUT)
            return Schedule(ii=ii, length=sol.values["length"], start=tuple(sorted(sol.values["start"].items(),
                            key=lambda kv: p.nodes.index(kv[0]))), status=status, lower_bound=lower,
                            solve_seconds=time.perf_counter() - t0, backend=solver.name, gap=None if gap is None else
                            float(ii - gap["ii_lower_bound"]),
                            extra=(("trace", trace), ("mii", {"mii": lb, "res_mii": res, "rec_mii": rec}),
                                   ("modulo_phases", {"bounds": round(t_bounds, 4),
                                                      "solve": round(time.perf_counter() - t0 - t_bounds, 4)}),
                                   ("gap_detail", gap)))
        if sol.status == TIMEOUT:
            proved_below = False
        ii += 1
    status = INFEASIBLE if proved_below else TIMEOUT
    return Schedule(ii=0, length=0, start=(), status=status, lower_bound=lb, solve_seconds=time.perf_counter() - t0,
                    backend=solver.name, extra=(("trace", trace), ("mii", {"mii": lb, "res_mii": res, "rec_mii": rec})))
