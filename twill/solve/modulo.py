"""Optimal modulo scheduling: try each II from the lower bound MII upward, each solved exactly at
that II (Figure 4's constraints), and stop at the first II that admits a schedule."""
from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from typing import Any

from twill.schedule.model import FEASIBLE, INFEASIBLE, OPTIMAL, TIMEOUT, Schedule
from twill.solve.backends import II_RANGE, get_backend, supports
from twill.solve.bounds import horizon, mii, schedule_from_slots, sequential_span
from twill.solve.budget import Budget
from twill.solve.problem import ModuloAtII, ModuloIIRange, ModuloProblem, Solution, SolveOptions


def modulo_schedule(p: ModuloProblem, backend: str = "cpsat", options: SolveOptions = SolveOptions(),
                    max_ii: int | None = None, min_ii: int | None = None,
                    total_time: float | None = None) -> Schedule:
    """The modulo schedule with the smallest II, and the shortest length L at that II.

    IIs are tried from ``max(MII, min_ii)`` up to ``max_ii`` or, by default, the sequential span
    (``twill.solve.bounds.sequential_span``), where a schedule always exists. Status:

    - ``optimal``: every smaller II tried was proved infeasible by the solver (or the II equals the
      lower bound) and the solver proved L minimal at this II;
    - ``feasible``: a checked schedule, but some smaller II timed out or L is not proved; ``gap``
      is then (II - II lower bound) / II when the II is open, else (L - L bound) / L;
    - ``timeout``: no schedule found and some II timed out; ``infeasible``: every II up to the
      limit was proved infeasible.

    The search stops trying new IIs once its calls have spent ``total_time`` deterministic seconds (default: 10
    solver time limits; ``twill.solve.budget``: the same IIs on every machine, ``extra["budget"]`` says what was
    spent and which limit ended it); having found nothing by then it reports ``timeout``.

    ``min_ii`` above MII makes "optimal" mean "smallest II at or above min_ii" (Algorithm 1 asks
    for the next II this way). ``extra`` records ``trace`` (one entry per II tried: ii, status,
    seconds, length, bound, horizon), ``mii`` and ``modulo_phases`` (bounds / build / solve seconds).

    Examples
    --------
    >>> from twill.graph.model import Reservation
    >>> gemm, exp = (Reservation("tc", 0, 1),), (Reservation("sfu", 0, 1),)
    >>> p = ModuloProblem(("S", "P", "O"), (1, 1, 1), (gemm, exp, gemm),
    ...                   ((0, 1, 1, 0), (1, 2, 1, 0), (2, 2, 1, 1)), (("sfu", 1), ("tc", 1)))
    >>> s = modulo_schedule(p, "cpsat")
    >>> s.ii, s.length, s.status
    (2, 4, 'optimal')
    """
    solver = get_backend(backend)
    t0 = time.perf_counter()
    lb, res, rec = mii(p)
    ceiling = max(lb, sequential_span(p))
    limit = total_time if total_time is not None else 10 * options.time_limit
    run = _Run(t0, t_bounds=time.perf_counter() - t0, budget=Budget(limit, t0=t0))
    first = max(lb, min_ii or 1)
    last = min(max_ii, ceiling) if max_ii is not None else ceiling
    common = {"mii": {"mii": lb, "res_mii": res, "rec_mii": rec},
              "ii_range": {"first": first, "last": last, "sequential_span": ceiling, "min_ii": min_ii}}
    if p.stage_order:       # the checker re-checks the compiler's stage order the schedule was solved under
        common["stage_order"] = [[p.nodes[a], p.nodes[b]] for a, b in p.stage_order]
    found = _search(solver, p, first, last, options, supports(backend, II_RANGE), run)
    if found is None:
        return Schedule(ii=0, length=0, start=(), status=TIMEOUT if run.open_ii is not None else INFEASIBLE,
                        lower_bound=run.open_ii if run.open_ii is not None else last + 1,
                        solve_seconds=time.perf_counter() - t0, backend=solver.name,
                        extra=(("trace", run.trace), *common.items(), ("modulo_phases", run.phases()),
                               ("budget", run.budget.record())))
    return _schedule(p, *found, run, common, solver.name)


@dataclass
class _Run:
    """The II search so far: one trace entry per II (or II range) tried, the seconds spent building
    and solving models, the smallest II that timed out (neither solved nor refuted), and the deterministic
    budget every call is charged to."""

    t0: float
    t_bounds: float
    budget: Budget
    trace: list[dict[str, Any]] = field(default_factory=list)
    build: float = 0.0
    solve: float = 0.0
    open_ii: int | None = None

    def phases(self) -> dict[str, float]:
        return {"bounds": round(self.t_bounds, 4), "build": round(self.build, 4), "solve": round(self.solve, 4)}


def _search(solver: Any, p: ModuloProblem, first: int, last: int, options: SolveOptions, ii_range: bool,
            run: _Run) -> tuple[int, Solution] | None:
    """The first II in [first, last] with a schedule, and that schedule's solution; None when every
    II was refuted, or the budget ran out (``run.open_ii`` then says where).

    With ``ii_range`` (a backend feature), once MII is refuted the rest of the range is one model
    with II a variable (``_range_step``), which refutes every II below the one it returns; that
    II's L is then solved on its own. A time-out or a bound without proof leaves the fixed-II
    steps to go on from there. The budget is checked between IIs; each call has the full ``options.time_limit``
    (deterministic seconds), its wall-clock cap within the search's."""
    range_done = not ii_range
    known, known_ii = None, 0                        # a schedule the range model found, at known_ii
    ii = first - 1
    while ii < last:
        ii += 1
        if run.trace and run.budget.over():
            run.open_ii = ii if run.open_ii is None else run.open_ii      # II and above: not decided
            return None
        options = dataclasses.replace(options, wall_limit=run.budget.call_limits(options.time_limit)[1])
        if not range_done and ii > first and run.open_ii is None and ii >= solver.range_floor(p):
            range_done = True
            rng = _range_step(solver, p, ii, last, options, run)
            if rng.status == INFEASIBLE:
                return None
            if rng.status == OPTIMAL:
                ii = int(rng.values["ii"])
                # Its slots with the least stages are a schedule at ii: a tighter horizon and a hint.
                known, known_ii = schedule_from_slots(p, ii, rng.values["slots"]), ii
        sol = solve_at_ii(solver, p, ii, options, known if known_ii == ii else None, ii_range=ii_range)
        run.budget.charge(sol.stats)
        run.build += sol.stats.get("build_seconds", 0.0)
        run.solve += sol.stats.get("solve_seconds", sol.stats.get("seconds", 0.0))
        run.trace.append({"ii": ii, "status": sol.status, "result": sol.status,
                          "seconds": round(sol.stats["seconds"], 4), "work": round(float(sol.stats.get("work", 0.0)), 4),
                          "length": sol.values.get("length"), "bound": sol.stats.get("bound"),
                          "horizon": sol.stats["horizon"]})
        if sol.status == TIMEOUT and run.open_ii is None:
            run.open_ii = ii
        if sol.status in (OPTIMAL, FEASIBLE):
            return ii, sol
    return None


def _range_step(solver: Any, p: ModuloProblem, lo: int, hi: int, options: SolveOptions, run: _Run) -> Solution:
    """The smallest feasible II in [lo, hi] in one model, recorded in ``run``."""
    rng = solver.smallest_ii(ModuloIIRange(p, lo, hi), options)
    run.budget.charge(rng.stats)
    run.build += rng.stats.get("build_seconds", 0.0)
    run.solve += rng.stats.get("solve_seconds", 0.0)
    run.trace.append({"ii": [lo, hi], "status": rng.status, "result": rng.status,
                      "seconds": round(rng.stats["seconds"], 4), "work": round(float(rng.stats.get("work", 0.0)), 4),
                      "smallest_ii": rng.values.get("ii"),
                      "method": "one model, II a variable"})
    return rng


def _schedule(p: ModuloProblem, ii: int, sol: Solution, run: _Run, common: dict[str, Any], backend: str) -> Schedule:
    """The schedule ``sol`` at ``ii``, with its proof: the II is proved when no smaller II timed out,
    L when the solver proved it minimal."""
    length = int(sol.values["length"])
    ii_proved = run.open_ii is None
    length_proved = sol.status == OPTIMAL
    status = OPTIMAL if ii_proved and length_proved else FEASIBLE
    ii_lb = ii if ii_proved else run.open_ii
    length_lb = length if length_proved else sol.stats.get("bound")
    gap = None
    if status == FEASIBLE:
        gap = (ii - ii_lb) / ii if not ii_proved else ((length - (length_lb or 0)) / length if length else 0.0)
    starts = sol.values["start"]
    return Schedule(ii=ii, length=length, start=tuple((n, int(starts[n])) for n in p.nodes), status=status,
                    lower_bound=int(ii_lb or ii),
                    solve_seconds=time.perf_counter() - run.t0, backend=backend, gap=gap,
                    extra=(("trace", run.trace), *common.items(), ("modulo_phases", run.phases()),
                           ("proof", {"ii_proved": ii_proved, "length_proved": length_proved,
                                      "ii_lower_bound": ii_lb, "length_lower_bound": length_lb}),
                           ("budget", run.budget.record())))


def solve_at_ii(solver: Any, p: ModuloProblem, ii: int, options: SolveOptions,
                known: dict[int, int] | None = None, ii_range: bool = False) -> Any:
    """The minimal L at exactly ``ii`` with ``solver`` (a backend), ``stats["horizon"]`` the bound
    it searched under.

    The horizon is ``twill.solve.bounds.horizon`` unless a schedule at ``ii`` is at hand, whose
    length bounds the optimum and whose starts are the hint: ``known``, or, from a backend with
    the ``ii_range`` feature (``ii_range=True``), the slots of that model at this one II completed by
    ``schedule_from_slots`` (on the realisable FA loop, 0.015 s against 0.3-0.5 s with the
    general horizon); that model refuting the II is the answer itself. ``stats["work"]`` is what every call
    made here spent together (deterministic seconds).
    """
    t0 = time.perf_counter()
    work = [0.0]

    def call(sol: Solution) -> Solution:
        work[0] += float(sol.stats.get("work", 0.0) or 0.0)
        return sol

    def done(sol: Any, h: int) -> Solution:
        return Solution(sol.status, sol.values, {**sol.stats, "horizon": h, "seconds": time.perf_counter() - t0,
                                                 "work": work[0]})

    if known is None and ii_range and ii >= solver.range_floor(p):
        one = call(solver.smallest_ii(ModuloIIRange(p, ii, ii), options))
        if one.status == INFEASIBLE:
            return done(one, horizon(p, ii))
        if one.status == OPTIMAL:
            known = schedule_from_slots(p, ii, one.values["slots"])
    h = horizon(p, ii)
    if known is not None:
        h_known = min(h, max(known[v] + p.cycles[v] for v in range(p.n)))
        sol = call(solver.solve(ModuloAtII(p, ii, h_known, tuple(known[v] for v in range(p.n))), options))
        if sol.status != INFEASIBLE:      # infeasible cannot be (the hint is a schedule): keep no false proof
            return done(sol, h_known)
    return done(call(solver.solve(ModuloAtII(p, ii, h), options)), h)


def refuted_iis(trace: list[dict[str, Any]]) -> set[int]:
    """The IIs a modulo search trace proved infeasible: fixed-II entries with status infeasible, and
    for a range entry (``ii`` = [lo, hi]) every II from lo up to the smallest feasible one it
    proved (the whole range when it proved none).

    Examples
    --------
    >>> sorted(refuted_iis([{"ii": 2, "status": "infeasible"}, {"ii": [3, 9], "status": "optimal",
    ...                      "smallest_ii": 5}, {"ii": 5, "status": "optimal"}]))
    [2, 3, 4]
    """
    out: set[int] = set()
    for t in trace:
        if isinstance(t.get("ii"), list):
            lo, hi = t["ii"]
            if t["status"] == INFEASIBLE:
                out.update(range(lo, hi + 1))
            elif t["status"] == OPTIMAL:
                out.update(range(lo, int(t["smallest_ii"])))
        elif t.get("status") == INFEASIBLE:
            out.add(int(t["ii"]))
    return out

