"""Algorithm 1: seed with the optimal modulo II, then search (I, L) upward for a joint schedule."""
from __future__ import annotations

import importlib
import inspect
import math
import time
from dataclasses import dataclass
from typing import Any, Callable

from twill.errors import SolverError
from twill.graph.model import Dep, LoopGraph, Op
from twill.schedule.model import FEASIBLE, INFEASIBLE, OPTIMAL, TIMEOUT, Schedule
from twill.solve.joint_problem import JointAtIL, JointProblem
from twill.solve.problem import SolveOptions

# name -> (module, class, pip package)
JOINT_BACKENDS = {
    "cpsat": ("twill.solve.backends.cpsat_joint", "CpSatJoint", "ortools"),
    "z3": ("twill.solve.backends.z3_joint", "Z3Joint", "z3-solver"),
}


def get_joint_backend(name: str) -> Any:
    """The joint-problem backend ``name`` (cpsat | z3); SolverError with the pip command when missing."""
    if name not in JOINT_BACKENDS:
        raise SolverError("unknown joint solver backend", expected=" | ".join(JOINT_BACKENDS), found=name)
    module, cls, package = JOINT_BACKENDS[name]
    backend = getattr(importlib.import_module(module), cls)()
    if not backend.is_installed():
        raise SolverError(f"joint solver backend {name} is not installed", hint=f"pip install {package}")
    return backend


@dataclass(frozen=True)
class JointOptions:
    """Knobs of the joint search. ``time_limit`` is per solver call, ``total_time`` for the search;
    ``mode`` "minimize" solves each I once for its smallest L, "each_length" checks every L in
    turn (Algorithm 1 literally); ``max_steps`` bounds the number of I values tried; ``total_time`` defaults to
    ten ``time_limit``s."""

    time_limit: float = 60.0
    total_time: float | None = None
    threads: int = 2
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
    optimal modulo length L_M up to ceil(L_M / I) * I; if none works, re-run the modulo ILP from
    I + 1. ``progress(I, L, elapsed)`` is called before each solve (a one-argument callable gets a
    message instead). Status ``optimal`` only when every smaller (I, L) of the search was proved
    unsatisfiable (and the L_M were proved) and the found one satisfiable; a timeout anywhere
    makes it ``feasible``.

    Examples
    --------
    >>> s = joint_search(graph, load_machine("h100"), JointOptions(time_limit=10))   # doctest: +SKIP
    >>> s.ii, s.length, s.warp_map, s.get("search")[0]["result"]                      # doctest: +SKIP
    (2, 4, {'S': 0, 'P': 0, 'O': 0}, 'sat')
    """
    from twill.solve.modulo import modulo_schedule

    opts = JointOptions.coerce(options)
    backend = backend or getattr(options, "joint_backend", None) or "cpsat"
    solver = get_joint_backend(backend)
    report = _progress(progress)
    t0 = time.perf_counter()
    if isinstance(graph_or_problem, JointProblem):
        p, graph = graph_or_problem, _graph_of(graph_or_problem)
        scale = opts.scale or 1.0
    else:
        graph = graph_or_problem
        norm = (seed.get("normalization") if seed is not None else None) or {}
        scale = opts.scale or float(norm.get("scale", graph.get("time_unit") or 1.0))
        p = JointProblem.from_graph(graph, machine, opts.num_warps, warp_groups=opts.warp_groups,
                                    reg_limit=opts.reg_limit, scale=scale, no_cross_warp=opts.no_cross_warp,
                                    hold_async=opts.hold_async, warps_per_op=opts.warps_per_op)
    budget = opts.total_time if opts.total_time is not None else 10 * opts.time_limit
    mopts = SolveOptions(time_limit=opts.time_limit, threads=opts.threads, seed=opts.seed)
    modulo = seed if seed is not None and seed.status in (OPTIMAL, FEASIBLE) else \
        modulo_schedule(p.modulo, opts.modulo_backend, mopts)
    trace: list[dict[str, Any]] = []
    if modulo.status not in (OPTIMAL, FEASIBLE):
        return Schedule(ii=0, length=0, start=(), status=modulo.status, lower_bound=modulo.lower_bound,
                        solve_seconds=time.perf_counter() - t0, backend=f"{solver.name}-joint", time_unit=scale,
                        extra=(("search", trace), ("joint", p.params())))
    first_ii = modulo.ii
    proved = _ii_proved(modulo)
    for _step in range(opts.max_steps):
        ii, lm = modulo.ii, modulo.length
        stages = max(1, math.ceil(lm / ii))
        hi = stages * ii
        # A joint schedule is a modulo schedule, so the modulo length bound at this I bounds L from
        # below: L_M itself when proved, else the solver's bound (shorter stage counts included).
        lb = _length_bound(modulo)
        if opts.mode == "minimize":
            ranges = [(max(lb, (st - 1) * ii + 1), st * ii) for st in range(max(1, math.ceil(lb / ii)), stages)]
            ranges.append((max(lb, (stages - 1) * ii + 1) if ranges else lb, hi))
        else:
            ranges = [(x, x) for x in range(lb, hi + 1)]
        for lo_l, hi_l in ranges:
            left = budget - (time.perf_counter() - t0)
            if left <= 0:
                proved = False
                break
            report(ii, lo_l, time.perf_counter() - t0)
            sol = solver.solve(JointAtIL(p, ii, lo_l, hi_l), SolveOptions(time_limit=min(opts.time_limit, left),
                                                                           threads=opts.threads, seed=opts.seed))
            trace += _trace_entries(ii, lo_l, hi_l, stages, sol)
            if sol.status in (OPTIMAL, FEASIBLE):
                exact = proved and sol.status == OPTIMAL
                return _schedule(graph, p, sol, modulo, first_ii, trace, exact, solver.name, scale,
                                 time.perf_counter() - t0)
            if sol.status == TIMEOUT:
                proved = False
        else:
            # No L at this I: Algorithm 1 moves to the next I with that I's optimal modulo schedule.
            nxt = _next_modulo(p, ii + 1, opts.modulo_backend, mopts)
            if nxt.status not in (OPTIMAL, FEASIBLE):
                proved = proved and nxt.status == INFEASIBLE
                break
            proved = proved and _ii_proved(nxt)
            modulo = nxt
            continue
        break
    status = INFEASIBLE if proved else TIMEOUT
    return Schedule(ii=0, length=0, start=(), status=status, lower_bound=first_ii,
                    solve_seconds=time.perf_counter() - t0, backend=f"{solver.name}-joint", time_unit=scale,
                    extra=(("search", trace), ("joint", p.params()),
                           ("search_summary", {"result": "no joint schedule in the searched (I, L) range",
                                               "ii_tried": sorted({e["ii"] for e in trace})})))


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
    return lambda i, length, s: cb(f"joint search: I={i} L={length} ({s:.1f}s)")


def _trace_entries(ii: int, lo: int, hi: int, stages: int, sol: Any) -> list[dict[str, Any]]:
    names = {"optimal": "sat", "feasible": "sat", "infeasible": "unsat", "timeout": "timeout"}
    per_length = sol.stats.get("lengths")
    if per_length:       # the backend tried each L in turn (z3)
        res = {"sat": "sat", "unsat": "unsat"}
        return [{"ii": ii, "length": e["length"], "stages": stages, "result": res.get(e["result"], "timeout"),
                 "seconds": e["seconds"]} for e in per_length]
    entry = {"ii": ii, "length": lo if lo == hi else [lo, hi], "stages": stages, "result": names[sol.status],
             "seconds": round(float(sol.stats.get("seconds", 0.0)), 4)}
    if sol.status in (OPTIMAL, FEASIBLE):
        entry["found_length"] = sol.values["length"]
        entry["length_proved_minimal"] = sol.status == OPTIMAL
    return [entry]


def _schedule(g: LoopGraph, p: JointProblem, sol: Any, modulo: Schedule, first_ii: int,
              trace: list[dict[str, Any]], exact: bool, backend: str, scale: float, seconds: float) -> Schedule:
    from twill.schedule.verify_joint import pressure

    start, warp, length = sol.values["start"], sol.values["warp"], sol.values["length"]
    sched = Schedule(ii=modulo.ii, length=length, start=tuple((n, start[n]) for n in p.nodes),
                     status=OPTIMAL if exact else FEASIBLE, lower_bound=first_ii if exact else modulo.lower_bound,
                     solve_seconds=seconds, backend=f"{backend}-joint", gap=None if exact else float(modulo.ii - first_ii),
                     time_unit=scale, warp=tuple((n, warp[n]) for n in p.nodes))
    params = p.params()
    sched = sched.with_extra(joint=params)
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
             "feasible: some smaller (I, L) timed out, or a modulo seed length was not proved")
    return sched.with_extra(
        warp_groups={"compute": p.warp_groups, "warps_per_group": p.warps_per_group, "variable_latency": p.vl_group,
                     "reg_limit_bytes": p.reg_limit},
        cross_warp=cross, memory={"peak": {m: press[m]["peak"] for m in ("registers", "smem", "tmem")},
                                  "capacity": {m: press[m]["capacity"] for m in ("registers", "smem", "tmem")}},
        liveness=press, streaming=streaming, search=trace,
        search_summary={"proof": proof, "scope": "I from the modulo optimum upward; at each I, L from the optimal "
                        "modulo length L_M up to ceil(L_M / I) * I (Algorithm 1)", "ii_tried": sorted({e["ii"] for e in trace})},
        modulo_seed={"ii": modulo.ii, "length": modulo.length, "status": modulo.status},
        mii=modulo.get("mii"))


def _graph_of(p: JointProblem) -> LoopGraph:
    """A stand-in graph of a bare problem, for the liveness report (ids, edges, footprints)."""
    mem = p.memories
    ops = [Op(v_id, "elementwise", "alu", cycles=p.cycles[v], rrt=p.rrt[v], variable_latency=p.variable_latency[v],
              regs=mem.get("registers", (0,) * p.n)[v], smem=mem.get("smem", (0,) * p.n)[v],
              tmem=mem.get("tmem", (0,) * p.n)[v]) for v, v_id in enumerate(p.nodes)]
    deps = [Dep(p.nodes[s], p.nodes[d], delay, dist, p.blocking[e]) for e, (s, d, delay, dist) in enumerate(p.edges)]
    return LoopGraph(p.name, tuple(ops), tuple(deps))


def _next_modulo(p: JointProblem, ii: int, backend: str, opts: SolveOptions) -> Schedule:
    """OPTIMAL-MODULO-SCHEDULE(G, I'): the optimal modulo schedule at the smallest I' >= ii.

    ``modulo_schedule`` stops at the sequential span, where a modulo schedule always exists; past it
    Algorithm 1 still needs one (more room for cross-warp delays), so solve that II directly."""
    from twill.solve.backends import get_backend
    from twill.solve.bounds import horizon
    from twill.solve.modulo import modulo_schedule
    from twill.solve.problem import ModuloAtII

    nxt = modulo_schedule(p.modulo, backend, opts, min_ii=ii)
    if nxt.status in (OPTIMAL, FEASIBLE) or (nxt.get("ii_range") or {}).get("last", ii) >= ii:
        return nxt
    mp = p.modulo
    sol = get_backend(backend).solve(ModuloAtII(mp, ii, horizon(mp, ii)), opts)
    if sol.status not in (OPTIMAL, FEASIBLE):
        return nxt
    return Schedule(ii=ii, length=int(sol.values["length"]), start=tuple((n, sol.values["start"][n]) for n in mp.nodes),
                    status=sol.status, lower_bound=ii, solve_seconds=float(sol.stats.get("seconds", 0.0)),
                    backend=backend, extra=(("mii", nxt.get("mii")),))
