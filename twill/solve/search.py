"""Algorithm 1: seed with the optimal modulo II, then search (I, L) upward for a joint schedule."""
from __future__ import annotations

import inspect
import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from twill.graph.model import Dep, LoopGraph, Op
from twill.schedule.model import FEASIBLE, INFEASIBLE, OPTIMAL, TIMEOUT, Schedule
from twill.schedule.verify import verify
from twill.schedule.verify_joint import preferences, pressure
from twill.solve.backends import II_RANGE, JOINT, get_backend, supports
from twill.solve.budget import Budget
from twill.solve.joint_problem import JointAtIL, JointProblem
from twill.solve.modulo import modulo_schedule, solve_at_ii
from twill.solve.problem import Solution, SolveOptions


PROBE_AFTER = 16       # I refuted in a row in pass 1 before the ceiling is tried (``_Search.probe_ceiling``)
PROBE_SHARE = 0.25     # of the budget left, at most, for that one call (a pass-1 call's limit is often too short there)
QUICK_FLOOR = 0.25     # deterministic seconds: the least per-call limit of pass 1 (about a CPU second, budget.py)


def get_joint_backend(name: str) -> Any:
    """The joint-problem backend ``name`` (``twill.solve.backends.names("joint")``); SolverError with
    the pip command when its solver is missing."""
    return get_backend(name, JOINT)


@dataclass(frozen=True)
class JointOptions:
    """Knobs of the joint search. ``time_limit`` is per solver call, ``total_time`` for the search, both in
    deterministic seconds (``twill.solve.budget``: the same search on every machine); ``wall_cap`` the search's
    wall-clock safety cap in seconds (None: ``budget.wall_cap(total_time)``), for pathological cases only;
    ``mode`` "minimize" solves each I once for its smallest L, "each_length" checks every L in
    turn (Algorithm 1 literally); ``max_steps`` bounds the number of I values tried; ``total_time`` defaults to
    ten ``time_limit``s."""

    time_limit: float = 60.0
    total_time: float | None = None
    wall_cap: float | None = None
    threads: int = 1            # solver workers: CP-SAT always runs one (backends.cpsat_base.cpsat_solver)
    seed: int = 0
    num_warps: int | None = None
    warp_groups: int | None = None
    reg_limit: int | None = None
    no_cross_warp: bool = False
    scale: float | None = None
    mode: str = "minimize"
    max_steps: int = 400
    modulo_backend: str = "cpsat"
    warps_per_op: int | None = None      # None: warps_per_tile(graph, machine)
    hold_async: bool = False
    async_issue: float | None = None     # cycles: asynchronous dots retire in order, groups sequential (Gluon route)
    stage_order: tuple[tuple[str, str], ...] = ()     # (a, b): stage(a) <= stage(b), by node id
    lookahead: tuple[int | None, ...] = ()   # LOOKAHEAD for these row sub-tiles' dots (Gluon route)
    one_partition: bool = False          # all the kernel's warps one group issuing its own loads (Gluon route)
    async_copies: bool = False           # the producer's copies hold it for their issue only (Gluon route)
    issued_loads: bool = False           # a pointer load its readers issue holds its group for its issue only
    extra_stages: int = 0                # stages past the modulo schedule's that L may reach at each I
    refuted_below: int = 0               # every I below it refuted by the caller's search of a looser problem
    # a schedule the ceiling's probe found kept where no smaller I gave one (feasible, the gap said); False: the
    # Gluon route's warp-specialized splits, which try the other operand model and the one partition after a
    # timeout (the fp8 weight GEMM's two sub-tiles at the ceiling, I = 1248, had stopped that: I = 216 after it)
    keep_ceiling: bool = True
    together: tuple[tuple[str, str], ...] = ()   # pairs of node ids one compute group holds both of (Gluon route)

    @classmethod
    def coerce(cls, opts: Any) -> "JointOptions":
        """From any object with some of these attributes (e.g. the optimize command's options)."""
        if isinstance(opts, cls) or opts is None:
            return opts or cls()
        names = cls.__dataclass_fields__
        kw = {k: getattr(opts, k) for k in names if getattr(opts, k, None) is not None}
        if "modulo_backend" not in kw and getattr(opts, "backend", None):
            kw["modulo_backend"] = opts.backend
        return cls(**kw)


def joint_search(graph_or_problem: LoopGraph | JointProblem, machine: Any, options: Any = None,
                 backend: str | None = None, progress: Callable[..., None] | None = None, *,
                 seed: Schedule | None = None) -> Schedule:
    """The joint software pipeline and warp assignment with the smallest (I, L) (Algorithm 1).

    Start at the modulo ILP's optimal I (or ``seed``, that schedule); at each I try L from the
    optimal modulo length L_M up to ceil(L_M / I) * I; if none works, take the optimal modulo
    schedule at I + 1. Three passes keep one hard refutation from stalling it: (1) I upward with a
    short limit per call (a tenth of ``time_limit``, at least 1 s): Algorithm 1 itself, and all
    of it when every refutation is quick; (2) after three timeouts in a row, I galloping upward
    (+1, +2, +4, ...) to a satisfiable I; (3) every I below the best one not yet refuted, smallest
    first, at the full ``time_limit``, until one is satisfiable or the budget (``total_time``) ends.
    No pass goes above ``JointProblem.ii_ceiling()``, where the iterations no longer overlap: a
    problem that no I satisfies (a register limit that a producer and its consumer exceed together)
    ends there, refuted or timed out, instead of galloping until the model no longer fits 64 bits. ``progress(I,
    L, spent)`` is called before each solve (``spent``: deterministic seconds; one argument: a message). Status ``optimal`` only when every smaller (I, L) was proved
    unsatisfiable, the seed II was proved, and the found L proved minimal; else ``feasible`` with
    ``lower_bound`` the smallest I not refuted and ``gap`` (I - lower_bound) / I.

    Every limit is counted in deterministic seconds (``twill.solve.budget``): each call's ``time_limit``, and
    the budget ``total_time`` as the sum of what the calls spent, so the same problem gives the same schedule
    on any machine. Only the wall-clock safety cap (``wall_cap``) depends on the clock; ``extra["budget"]``
    says what was spent, which limit ended the search (``stopped_by``) and whether the result is
    ``reproducible`` (no wall-clock cap reached).

    The one partition's search that finds none keeps the iteration laid out op after op (``_laid_out``). E.g.:
    >>> s = joint_search(graph, load_machine("h100"), JointOptions(time_limit=10))   # doctest: +SKIP
    >>> s.ii, s.length, s.warp_map, s.get("search")[0]["result"]                      # doctest: +SKIP
    (2, 4, {'S': 0, 'P': 0, 'O': 0}, 'sat')
    """
    opts = JointOptions.coerce(options)
    backend = backend or getattr(options, "joint_backend", None) or "cpsat"
    solver = get_joint_backend(backend)
    report = _progress(progress)
    t0 = time.perf_counter()
    p, graph, scale = _problem(graph_or_problem, machine, opts, seed)
    limit = opts.total_time if opts.total_time is not None else 10 * opts.time_limit
    budget = Budget(limit, opts.wall_cap, t0=t0)
    if seed is not None and seed.status in (OPTIMAL, FEASIBLE):
        modulo = seed
    else:
        mopts = SolveOptions(time_limit=opts.time_limit, threads=opts.threads, seed=opts.seed)
        modulo = modulo_schedule(p.modulo, opts.modulo_backend, mopts, total_time=limit)
        budget.absorb(modulo.get("budget"))
    if modulo.status not in (OPTIMAL, FEASIBLE):
        return Schedule(ii=0, length=0, start=(), status=modulo.status, lower_bound=modulo.lower_bound,
                        solve_seconds=time.perf_counter() - t0, backend=f"{solver.name}-joint", time_unit=scale,
                        extra=(("search", []), ("joint", p.params()), ("budget", budget.record())))
    first_ii = modulo.ii
    seed_proved = _ii_proved(modulo)
    run = _Search(p, solver, opts, report, budget, moduli={first_ii: modulo}, ceiling=max(first_ii, p.ii_ceiling()))
    best, last_ii = run.passes(first_ii)
    elapsed, below = time.perf_counter() - t0, run.refuted_below(first_ii) if seed_proved else 0
    if best is None and (laid := _laid_out(graph, p, run, machine, solver.name, scale, first_ii)) is not None:
        return laid.with_extra(budget=budget.record(), refuted_below=below)
    if best is None:
        refuted = seed_proved and run.ended is None and all(run.outcome.get(i) == "unsat"
                                                             for i in range(first_ii, last_ii + 1))
        tried = max(run.outcome, default=first_ii)
        every = bool(run.outcome) and all(run.outcome.get(i) == "unsat" for i in range(first_ii, tried + 1))
        # why the search ended: the ceiling, its step bound (every I tried refuted, the ceiling not reached), its
        # deterministic budget, or (pathological) the wall-clock cap
        stopped = run.ended or ("ceiling" if last_ii >= run.ceiling else "steps" if run.steps >= opts.max_steps
                                else budget.stopped_by or "budget")
        return Schedule(ii=0, length=0, start=(), status=INFEASIBLE if refuted else TIMEOUT, lower_bound=first_ii,
                        solve_seconds=elapsed, backend=f"{solver.name}-joint", time_unit=scale,
                        extra=(("search", run.trace), ("joint", p.params()), ("budget", budget.record()),
                               ("refuted_below", below),
                               ("search_summary", {"result": "no joint schedule in the searched (I, L) range",
                                                   "ii_tried": _solved_iis(run.trace),
                                                   "ii_ceiling": run.ceiling, "stopped": stopped,
                                                   "last_ii": tried, "all_refuted": every,
                                                   "max_steps": opts.max_steps})))
    found_ii, sol, mod = best
    open_below = [i for i in range(first_ii, found_ii) if run.outcome.get(i) != "unsat"]
    ii_lower = open_below[0] if open_below else found_ii
    exact = seed_proved and not open_below and sol.status == OPTIMAL
    sched = _schedule(graph, p, sol, mod, first_ii, run.trace, exact, solver.name, scale, elapsed,
                      ii_lower=ii_lower if seed_proved else first_ii, mii=run.moduli[first_ii].get("mii"))
    return _scoped(sched, opts.extra_stages).with_extra(budget=budget.record(), refuted_below=below)


def _laid_out(graph: LoopGraph, p: JointProblem, run: "_Search", machine: Any, backend: str, scale: float,
              first_ii: int) -> Schedule | None:
    """The schedule at the ceiling I of one iteration laid out op after op (``JointProblem.sequential_starts``),
    each op on its first allowed group, where no solve found one for the one partition (the route's last resort:
    nothing is tried after it) and nothing proved there is none (the ceiling timing out, or never probed): status feasible, with the gap to the smallest I not refuted; None unless the independent checker
    accepts it (axolotl's DoRA norm: its 16 FMAs are one node reading 17 loaded rows at once, over the register
    limit at every I, laid out too)."""
    mod = run.moduli.get(run.ceiling)
    if not p.one_partition or (mod is not None and mod.status not in (OPTIMAL, FEASIBLE)) \
            or run.outcome.get(run.ceiling) == "unsat" or run.ended == "ceiling refuted":
        return None
    starts = p.sequential_starts()
    length = max(max(t + max(p.cycles[v], 1) for v, t in enumerate(starts)), 1)
    if length > run.ceiling:
        return None
    if mod is None:     # the budget ended before the ceiling was probed (FastDeploy's WINT2 MoE GEMM): the layout is a
        # modulo schedule at the ceiling itself, which the checker below judges
        mod = Schedule(ii=run.ceiling, length=length, start=tuple(zip(p.nodes, starts)), status=FEASIBLE,
                       lower_bound=first_ii, solve_seconds=0.0, backend="laid out")
    sol = Solution(FEASIBLE, {"start": dict(zip(p.nodes, starts)), "length": length,
                              "warp": {n: p.groups_of(v)[0] for v, n in enumerate(p.nodes)}}, {})
    lower = next((i for i in range(first_ii, run.ceiling) if run.outcome.get(i) != "unsat"), run.ceiling)
    trace = run.trace + [{"ii": run.ceiling, "length": length, "stages": 1, "result": "sat", "seconds": 0.0,
                          "phase": "laid out", "why": "one iteration op after op, no solve"}]
    sched = _schedule(graph, p, sol, mod, first_ii, trace, False, backend, scale, 0.0, ii_lower=lower,
                      mii=run.moduli[first_ii].get("mii") if first_ii in run.moduli else None)
    return sched if not verify(graph, machine, sched) else None


def _problem(graph_or_problem: LoopGraph | JointProblem, machine: Any, opts: JointOptions,
             seed: Schedule | None) -> tuple[JointProblem, LoopGraph, float]:
    """The joint problem, the graph it stands for and machine cycles per schedule unit."""
    if isinstance(graph_or_problem, JointProblem):
        return graph_or_problem, _graph_of(graph_or_problem), opts.scale or 1.0
    graph = graph_or_problem
    norm = (seed.get("normalization") if seed is not None else None) or {}
    scale = opts.scale or float(norm.get("scale", graph.get("time_unit") or 1.0))
    p = JointProblem.from_graph(graph, machine, opts.num_warps, warp_groups=opts.warp_groups,
                                reg_limit=opts.reg_limit, scale=scale, no_cross_warp=opts.no_cross_warp,
                                hold_async=opts.hold_async, warps_per_op=opts.warps_per_op,
                                stage_order=tuple(opts.stage_order), async_issue=opts.async_issue,
                                lookahead=tuple(opts.lookahead), one_partition=opts.one_partition,
                                async_copies=opts.async_copies, issued_loads=opts.issued_loads,
                                together=tuple(opts.together))
    return p, graph, scale


@dataclass
class _Search:
    """Algorithm 1 under way: the modulo seed per I (``moduli``), the trace of every (I, L) tried,
    ``outcome[I]`` "unsat" | "timeout" for each I with no schedule found, and the solver calls made;
    no I above ``ceiling`` is tried; every call is charged to ``budget`` (deterministic seconds)."""

    p: JointProblem
    solver: Any
    opts: JointOptions
    report: Callable[[int, int, float], None]
    budget: Budget
    moduli: dict[int, Schedule]
    ceiling: int
    trace: list[dict[str, Any]] = field(default_factory=list)
    outcome: dict[int, str] = field(default_factory=dict)
    steps: int = 0
    ended: str | None = None     # why the ascent ended early ("ceiling refuted"), if it did
    fallback: tuple[int, Any, Schedule] | None = None   # the ceiling's schedule the probe found (``probe_ceiling``)
    walked: bool = False         # the ascent went ``PROBE_AFTER`` I past the ceiling's probe and found nothing
    resume: int = 0              # where the ascent stopped then (it goes on there where the gallop finds nothing)

    def passes(self, first_ii: int) -> tuple[tuple[int, Any, Schedule] | None, int]:
        """``(best, last I tried)``, best = (I, solution, modulo seed) or None: the three passes
        of ``joint_search``."""
        # Pass 1, Algorithm 1 as written: I upward from the modulo optimum, each I's L range in
        # turn, with a short time limit per call so that one hard refutation does not stall it.
        quick = min(self.opts.time_limit, max(QUICK_FLOOR, self.opts.time_limit / 10))
        best, ii, stuck = self.ascend(self.skip_bound(first_ii), quick)
        # Pass 2, when refutations time out: gallop upward (steps 1, 2, 4, ...) to a satisfiable I,
        # an upper bound in hand early.
        if best is None and (stuck >= 3 or self.walked) and self.ended is None:
            best, ii = self.gallop(ii, quick)
        if best is None and self.walked and self.ended is None and not self.budget.over():
            # the gallop found none either (FastDeploy's WINT2 GEMM: its larger I timed out): the ascent goes on where
            # it stopped, with what the budget has left
            best, ii, _ = self.ascend(self.resume, quick)
        if best is None and self.fallback is not None and self.opts.keep_ceiling:
            best, ii = self.fallback, max(ii, self.fallback[0])
        # Pass 3: close the gap below the best I found, at the full time limit, smallest I first.
        if best is not None:
            best = self.close(first_ii, best)
        return best, ii

    def skip_bound(self, first_ii: int) -> int:
        """Where pass 1 starts: with every op's group fixed, the waiting ops of a group take disjoint
        arcs of the I slots, so every I below their busy sum is refuted without a solve; and every I below
        ``refuted_below``, which the caller's search of a looser problem refuted (``refuted_below``, the
        function: the same graph and modulo seed, so the same (I, L) ranges; a higher register limit, or a dot's
        operands live until it issues where here until it retires, so every schedule of this problem is one of
        that one's)."""
        bound, why = self.p.concurrency_bound()
        inherited = min(self.opts.refuted_below, self.ceiling)
        for top, phase, said in ((bound, "bound", why), (inherited, "inherited", "refuted by a search of a looser "
                                                         "problem (a higher register limit, or operands live until "
                                                         "issue)")):
            low = max(first_ii, max((i + 1 for i, r in self.outcome.items() if r == "unsat"), default=first_ii))
            if top <= low:
                continue
            self.trace.append({"ii": [low, top - 1], "length": None, "stages": None, "result": "unsat",
                               "seconds": 0.0, "phase": phase, "why": said})
            self.outcome.update({i: "unsat" for i in range(low, top)})
        return max(first_ii, bound, inherited)

    def ascend(self, ii: int, limit: float) -> tuple[tuple[int, Any, Schedule] | None, int, int]:
        """I upward from ``ii``: ``(best or None, last I reached, timeouts in a row)``; stops after
        three, or after the ceiling (then the last I reached is the ceiling, tried), or where the ceiling,
        tried after ``PROBE_AFTER`` I refuted in a row, is refuted too (``probe_ceiling``), or ``PROBE_AFTER`` I
        after a probe that was not (``walked``: the passes gallop, then resume the ascent at ``resume``); I already
        refuted are skipped."""
        stuck = refuted = 0
        probed = None if not self.walked else -1    # the steps taken when the ceiling was probed and not refuted
        while ii <= self.ceiling and self.steps < self.opts.max_steps and not self.budget.over():
            if self.outcome.get(ii) == "unsat":      # refuted already (by the gallop, where the ascent resumes)
                ii += 1
                continue
            got = self.attempt(ii, limit, "ascend")
            self.steps += 1
            if got is not None:
                return (ii, *got), ii, stuck
            stuck = stuck + 1 if self.outcome[ii] == "timeout" else 0
            refuted = refuted + 1 if self.outcome[ii] == "unsat" else 0
            if stuck >= 3:
                break
            if refuted == PROBE_AFTER and ii + 1 < self.ceiling and probed is None:
                if self.probe_ceiling(limit):
                    break
                probed = self.steps
            if probed is not None and not self.walked and self.steps - probed >= PROBE_AFTER:
                # as many I again after the probe, none satisfiable: the answer lies far up (FastDeploy's WINT2 MoE
                # GEMM walked 398 I one by one, its budget gone before any schedule): gallop to one (pass 2), then
                # close the gap below it (pass 3)
                self.walked = True
                self.resume = ii + 1
                break
            ii += 1
        return None, min(ii, self.ceiling), stuck

    def refuted_below(self, first_ii: int) -> int:
        """The smallest I from ``first_ii`` up that was not refuted (every I below it was)."""
        ii = first_ii
        while self.outcome.get(ii) == "unsat":
            ii += 1
        return ii

    def probe_ceiling(self, limit: float) -> bool:
        """Whether the ceiling I (iterations no longer overlapping, the fewest registers live) is refuted: then the
        search ends there (``ended``), every I between not searched: status timeout, not infeasible, for nothing
        below the ceiling was proved. Where a register limit no I meets, the ascent would otherwise try up to
        ``max_steps`` I one by one (session 76: 400 refuted solves, 20 s, on each of four of the NVFP4 GEMM's
        searches). Its limit: the full call limit, within ``PROBE_SHARE`` of the budget left (pass 1's tenth of it
        timed out at the attention backward helpers' ceiling, I = 810). A schedule found there is dropped: the ascent
        goes on for the smallest I."""
        got = self.attempt(self.ceiling, max(limit, min(self.opts.time_limit, self.budget.left() * PROBE_SHARE)),
                           "probe")
        self.steps += 1
        if got is None and self.outcome[self.ceiling] == "unsat":
            self.ended = "ceiling refuted"
            return True
        if got is not None:             # kept where the ascent and the gallop find none below it
            self.fallback = (self.ceiling, *got)
        self.outcome.pop(self.ceiling, None)
        return False

    def gallop(self, ii: int, limit: float) -> tuple[tuple[int, Any, Schedule] | None, int]:
        jump = 1
        while ii < self.ceiling and self.steps < self.opts.max_steps and not self.budget.over():
            ii = min(ii + jump, self.ceiling)
            jump *= 2
            got = self.attempt(ii, limit, "gallop")
            self.steps += 1
            if got is not None:
                return (ii, *got), ii
        return None, ii

    def close(self, first_ii: int, best: tuple[int, Any, Schedule]) -> tuple[int, Any, Schedule]:
        for cand in range(first_ii, best[0]):
            if self.outcome.get(cand) == "unsat":
                continue
            if self.budget.over():
                break
            self.outcome.pop(cand, None)
            got = self.attempt(cand, self.opts.time_limit, "close")
            if got is not None:
                return (cand, *got)
        return best

    def options(self, limit: float) -> SolveOptions:
        """One call's options: ``limit`` deterministic seconds within what the budget has left, and the wall-clock
        cap within the search's."""
        work, wall = self.budget.call_limits(limit)
        return SolveOptions(time_limit=work, threads=self.opts.threads, seed=self.opts.seed, wall_limit=wall)

    def attempt(self, ii: int, limit: float, phase: str) -> tuple[Any, Schedule] | None:
        """Every L range at one I: the first satisfying (solution, modulo seed), or None; records
        ``outcome[ii]`` otherwise (unsat only when every range and the modulo seed were refuted)."""
        if ii not in self.moduli:
            self.moduli[ii] = _modulo_at(self.p, ii, self.opts.modulo_backend, self.options(max(0.01, limit)))
            self.budget.absorb(self.moduli[ii].get("budget"))
        mod = self.moduli[ii]
        if mod.status == INFEASIBLE:     # a joint schedule is a modulo schedule: none at this I
            self.trace.append({"ii": ii, "length": None, "stages": None, "result": "unsat", "seconds": 0.0,
                               "phase": phase, "why": "no modulo schedule at this I"})
            self.outcome[ii] = "unsat"
            return None
        if mod.status not in (OPTIMAL, FEASIBLE):
            self.outcome[ii] = "timeout"
            return None
        timed_out = False
        seed_starts = tuple(dict(mod.start)[n] for n in self.p.nodes) if mod.ii == ii and mod.start else ()
        if ii >= self.ceiling:      # the iterations apart: the op-after-op layout, which a register limit leaves
            seed_starts = self.p.sequential_starts()
        for lo_l, hi_l, stages in _ranges(mod, self.opts.mode, self.p.lookahead_stages() + self.opts.extra_stages):
            if self.budget.over():
                timed_out = True
                break
            self.report(ii, lo_l, self.budget.spent)
            sol = self.solve(JointAtIL(self.p, ii, lo_l, hi_l, seed_starts), stages, limit, phase)
            if sol.status in (OPTIMAL, FEASIBLE):
                return sol, mod
            timed_out = timed_out or sol.status == TIMEOUT
        self.outcome[ii] = "timeout" if timed_out else "unsat"
        return None

    def solve(self, q: JointAtIL, stages: int, limit: float, phase: str) -> Any:
        """One step at ``limit``, traced. Satisfiable with L not yet proved minimal in a short limit:
        this I is the answer of the pass, so its L gets the full limit."""
        sol = self.solver.solve(q, self.options(limit))
        self.budget.charge(sol.stats)
        self.trace.extend(_trace_entries(q.ii, q.lo, q.hi, stages, sol, phase))
        if sol.status == FEASIBLE and limit < self.opts.time_limit and not self.budget.over():
            again = self.solver.solve(q, self.options(self.opts.time_limit))
            self.budget.charge(again.stats)
            if again.status == OPTIMAL or (again.status == FEASIBLE and again.values["length"] <= sol.values["length"]):
                sol = again
                self.trace.extend(_trace_entries(q.ii, q.lo, q.hi, stages, sol, phase + "+prove-L"))
        return sol


def _scoped(sched: Schedule, extra_stages: int) -> Schedule:
    """``sched`` saying the proof's scope where L reached ``extra_stages`` stages past ceil(L_M / I)."""
    if not extra_stages:
        return sched
    summary = dict(sched.get("search_summary"))
    summary["scope"] += f", plus {extra_stages} stage(s) (--extra-stages)"
    return sched.with_extra(search_summary=summary, extra_stages=extra_stages)


def _solved_iis(trace: list[dict[str, Any]]) -> list[int]:
    """The I values a solver was called at (a bound's entry covers a range, ``ii`` = [lo, hi])."""
    return sorted({e["ii"] for e in trace if isinstance(e["ii"], int)})


def _ranges(modulo: Schedule, mode: str, extra: int = 0) -> list[tuple[int, int, int]]:
    """The (lo, hi, stages) L ranges Algorithm 1 tries at ``modulo.ii``: from the modulo length bound
    (a joint schedule is a modulo schedule) while ceil(L / I) stays that of L_M, plus ``extra`` stages
    (LOOKAHEAD puts a dot an iteration after another: stages the modulo schedule does not need)."""
    ii, lm = modulo.ii, modulo.length
    stages = max(1, math.ceil(lm / ii)) + extra
    hi = stages * ii
    lb = _length_bound(modulo)
    if mode != "minimize":
        return [(x, x, stages) for x in range(lb, hi + 1)]
    out = [(max(lb, (st - 1) * ii + 1), st * ii, st) for st in range(max(1, math.ceil(lb / ii)), stages)]
    out.append((max(lb, (stages - 1) * ii + 1) if out else lb, hi, stages))
    return out


def _modulo_at(p: JointProblem, ii: int, backend: str, opts: SolveOptions) -> Schedule:
    """The optimal modulo schedule at exactly ``ii`` (status infeasible when none exists there)."""
    mp = p.modulo
    sol = solve_at_ii(get_backend(backend), mp, ii, opts, ii_range=supports(backend, II_RANGE))
    spent_here = ("budget", {"spent": float(sol.stats.get("work", 0.0)), "stopped_by": sol.stats.get("stopped_by")})
    if sol.status not in (OPTIMAL, FEASIBLE):
        return Schedule(ii=ii, length=0, start=(), status=sol.status, lower_bound=ii,
                        solve_seconds=float(sol.stats.get("seconds", 0.0)), backend=backend, extra=(spent_here,))
    length = int(sol.values["length"])
    return Schedule(ii=ii, length=length, start=tuple((n, sol.values["start"][n]) for n in mp.nodes),
                    status=sol.status, lower_bound=ii, solve_seconds=float(sol.stats.get("seconds", 0.0)),
                    backend=backend, extra=(("proof", {"ii_proved": True, "length_proved": sol.status == OPTIMAL,
                                                        "length_lower_bound": sol.stats.get("bound")}), spent_here))


def _ii_proved(modulo: Schedule) -> bool:
    """Every II below ``modulo.ii`` (down to the search's start) was proved infeasible."""
    return modulo.status == OPTIMAL or bool((modulo.get("proof") or {}).get("ii_proved"))


def _length_bound(modulo: Schedule) -> int:
    """The smallest L a schedule at ``modulo.ii`` can have: its length when proved minimal, else the
    modulo solver's lower bound on it (at least 1)."""
    proof = modulo.get("proof") or {}
    if modulo.status == OPTIMAL or proof.get("length_proved"):
        return modulo.length
    bound = proof.get("length_lower_bound")
    return max(1, min(modulo.length, int(bound))) if bound else 1


def _progress(cb: Callable[..., None] | None) -> Callable[[int, int, float], None]:
    if cb is None:
        return lambda _i, _l, _s: None
    try:
        takes_three = len(inspect.signature(cb).parameters) >= 3
    except (TypeError, ValueError):
        takes_three = True
    if takes_three:
        return cb
    return lambda i, length, s: cb(f"joint search: I={i} L={length} ({s:.1f} deterministic s)")


def _trace_entries(ii: int, lo: int, hi: int, stages: int, sol: Any, phase: str) -> list[dict[str, Any]]:
    names = {"optimal": "sat", "feasible": "sat", "infeasible": "unsat", "timeout": "timeout"}
    per_length = sol.stats.get("lengths")
    if per_length:       # the backend tried each L in turn (z3)
        res = {"sat": "sat", "unsat": "unsat"}
        return [{"ii": ii, "length": e["length"], "stages": stages, "result": res.get(e["result"], "timeout"),
                 "seconds": e["seconds"], "phase": phase} for e in per_length]
    entry = {"ii": ii, "length": lo if lo == hi else [lo, hi], "stages": stages, "result": names[sol.status],
             "seconds": round(float(sol.stats.get("seconds", 0.0)), 4), "work": round(float(sol.stats.get("work", 0.0)), 4)}
    if sol.stats.get("stopped_by"):
        entry["stopped_by"] = sol.stats["stopped_by"]
    if sol.status in (OPTIMAL, FEASIBLE):
        entry["found_length"] = sol.values["length"]
        entry["length_proved_minimal"] = sol.status == OPTIMAL
        if sol.stats.get("tie_break"):     # the preference pass: OPTIMAL when its order was proved
            entry["preference_pass"] = sol.stats["tie_break"]
    entry["phase"] = phase
    return [entry]


def _schedule(g: LoopGraph, p: JointProblem, sol: Any, modulo: Schedule, first_ii: int,
              trace: list[dict[str, Any]], exact: bool, backend: str, scale: float, seconds: float,
              ii_lower: int | None = None, mii: Any = None) -> Schedule:
    start, warp, length = sol.values["start"], sol.values["warp"], sol.values["length"]
    sched = Schedule(ii=modulo.ii, length=length, start=tuple((n, start[n]) for n in p.nodes),
                     status=OPTIMAL if exact else FEASIBLE, lower_bound=modulo.ii if exact else (ii_lower or first_ii),
                     solve_seconds=seconds, backend=f"{backend}-joint",
                     gap=None if exact else (modulo.ii - (ii_lower or first_ii)) / modulo.ii,
                     time_unit=scale, warp=tuple((n, warp[n]) for n in p.nodes))
    params = p.params()
    sched = sched.with_extra(joint=params)
    if p.stage_order:
        sched = sched.with_extra(stage_order=[[p.nodes[a], p.nodes[b]] for a, b in p.stage_order])
    press = pressure(g, sched, params)
    cross = [{"src": p.nodes[s], "dst": p.nodes[d], "groups": [warp[p.nodes[s]], warp[p.nodes[d]]],
              "distance": dist, "delay": delay, "spill": p.spill[s]}
             for s, d, delay, dist in p.edges if s != d and warp[p.nodes[s]] != warp[p.nodes[d]]]
    smem = p.memories.get("smem", (0,) * p.n)
    streaming = {}
    for v, name in enumerate(p.nodes):
        if not p.variable_latency[v] or p.cycles[v] != 0:
            continue
        ahead = [start[p.nodes[d]] + p.edges[e][3] * modulo.ii - start[name]
                 for e, (s, d, _, _) in enumerate(p.edges) if s == v]
        need = press["live_copies"].get(name, 0)
        room = press["smem"]["capacity"] - press["smem"]["peak"]
        streaming[name] = {"stages_ahead": max(ahead, default=0) // modulo.ii, "min_buffers": need,
                           "max_buffers_fit": need + (room // smem[v] if smem[v] else 0)}
    proof = ("optimal: every smaller (I, L) of Algorithm 1 was proved unsatisfiable" if exact else
             f"feasible: I >= {ii_lower or first_ii} proved; some smaller (I, L) timed out, or a modulo seed "
             "length was not proved")
    return sched.with_extra(
        warp_groups={"compute": p.warp_groups, "warps_per_group": p.warps_per_group, "variable_latency": p.vl_group,
                     "issue": p.issue_group, "reg_limit_bytes": p.reg_limit},
        cross_warp=cross, memory={"peak": {m: press[m]["peak"] for m in ("registers", "smem", "tmem")},
                                  "capacity": {m: press[m]["capacity"] for m in ("registers", "smem", "tmem")}},
        liveness=press, streaming=streaming, search=trace,
        preference={**preferences(g, sched, params), "order": ["length", "issue warp", "blocking_exposure",
                                                                "crossing_values"],
                    "proved": "the preference pass does not change what is proved: (I, L) as in search_summary"},
        search_summary={"proof": proof, "scope": "I from the modulo optimum upward; at each I, L from the optimal "
                        "modulo length L_M up to ceil(L_M / I) * I (Algorithm 1)", "ii_tried": _solved_iis(trace)},
        modulo_seed={"ii": modulo.ii, "length": modulo.length, "status": modulo.status},
        mii=mii or modulo.get("mii"))


def _graph_of(p: JointProblem) -> LoopGraph:
    """A stand-in graph of a bare problem, for the liveness report (ids, edges, footprints)."""
    mem = p.memories
    ops = [Op(v_id, "elementwise", "alu", cycles=p.cycles[v], rrt=p.rrt[v], variable_latency=p.variable_latency[v],
              regs=mem.get("registers", (0,) * p.n)[v], smem=mem.get("smem", (0,) * p.n)[v],
              tmem=mem.get("tmem", (0,) * p.n)[v]) for v, v_id in enumerate(p.nodes)]
    deps = [Dep(p.nodes[s], p.nodes[d], delay, dist, p.blocking[e]) for e, (s, d, delay, dist) in enumerate(p.edges)]
    return LoopGraph(p.name, tuple(ops), tuple(deps))
