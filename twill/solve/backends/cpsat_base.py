"""What the CP-SAT backends share: the solver's parameters, and CAPACITY folded modulo a fixed II on
slot variables (the encoding of ``cpsat`` for the modulo problem and of the joint backend)."""
from __future__ import annotations

from typing import Any

from twill.solve.budget import WALL_CAP, WORK_LIMIT
from twill.solve.joint_problem import arcs


def cpsat_solver(options: Any) -> Any:
    """A CP-SAT solver configured from ``options`` (time_limit, wall_seconds, seed), the one place every CP-SAT
    backend takes its parameters from.

    The limit is deterministic (``max_deterministic_time`` = ``time_limit``, ``twill.solve.budget``): the same
    model, seed and OR-Tools version give the same answer on every machine, however loaded. The wall clock
    (``max_time_in_seconds``) is only a safety cap, far above what the deterministic limit takes.

    One worker, whatever ``options.threads`` asks: it searches sequentially, deterministic as it is. Several
    workers are either CP-SAT's default portfolio, whose workers race (two equally good schedules come back in
    either order, and a limit cuts each worker wherever the clock finds it), or its interleaved search
    (``interleave_search``, "experimental", documented deterministic independently of ``num_workers``), which
    aborts the whole process in OR-Tools 9.15 on a model decided while loading ("Check failed:
    heuristics.fixed_search != nullptr": tests/corpus/pointer_attention.py's joint models, two workers, with or
    without the settings below) and overran a 0.6 s limit fourfold on the FA backward's joint model. The
    two-worker portfolio was slower on these models on this 2-core machine anyway.

    No LP relaxation (``linearization_level = 0``): these are scheduling problems whose bound on L
    comes from the modulo length already proved, and the LP's cuts do not prune them. No probing in
    presolve (``cp_model_probing_level = 0``): it costs most of a small refutation's time and, on
    the joint problems, more than the search it saves. Measured with one worker over six seeds on
    the Blackwell sub-tiled FA joint step (I = 200, hinted with the modulo seed): median 0.09 s,
    against 0.85 s with probing and 16.6 s (unhinted) with CP-SAT's defaults; the Hopper sub-tiled
    step (I = 412): 0.30 s against 0.68 s; a Hopper FA backward refutation: 50 ms against 86 ms.
    No SIGINT handler of CP-SAT's own (``catch_sigint_signal = False``): it would stop the solve,
    return a "feasible" answer as if the time limit had been hit and reset SIGINT to its default
    action; Ctrl-C belongs to the command line (``twill.cli.main``).
    """
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    limit_solver(solver, float(options.time_limit), float(options.wall_seconds))
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = int(options.seed)
    solver.parameters.linearization_level = 0
    solver.parameters.cp_model_probing_level = 0
    solver.parameters.catch_sigint_signal = False
    return solver


def limit_solver(solver: Any, work: float, wall: float) -> None:
    """Set ``solver``'s limits: ``work`` deterministic seconds, ``wall`` seconds of wall clock (the safety cap)."""
    solver.parameters.max_deterministic_time = max(0.001, work)
    solver.parameters.max_time_in_seconds = max(0.001, wall)


def work_stats(solver: Any, status: int, before: float = 0.0) -> dict[str, Any]:
    """What one ``Solve`` spent: ``work`` (its deterministic seconds, plus ``before`` from earlier solves of the
    same call) and, when a limit stopped it (FEASIBLE or UNKNOWN), ``stopped_by``: the deterministic limit, or
    the wall-clock cap (the answer then depends on the machine)."""
    from ortools.sat.python import cp_model

    out: dict[str, Any] = {"work": before + float(solver.deterministic_time)}
    if status in (cp_model.FEASIBLE, cp_model.UNKNOWN):
        # the deterministic limit reached, or not: then the clock stopped it (CP-SAT's wall_time may read a little
        # under the cap it stopped on)
        reached = solver.deterministic_time >= 0.99 * solver.parameters.max_deterministic_time
        out["stopped_by"] = WORK_LIMIT if reached else WALL_CAP
    return out


def add_folded_capacity(m: Any, p: Any, r: list, ii: int) -> bool:
    """CAPACITY folded modulo ``ii`` on slot variables ``r``: each reservation of length l at offset
    o is l // ii full turns (a constant load) plus an arc of l % ii slots from (r_v + o) mod ii,
    posted as two intervals (at s and s + ii) under one no-overlap / cumulative per unit over
    [0, 3 ii). False when the constant load alone exceeds a unit's capacity."""
    for unit, cap in p.capacity:
        full, intervals, demands = 0, [], []
        for v in range(p.n):
            for res in p.rrt[v]:
                if res.unit != unit or not res.count or not res.length:
                    continue
                turns, rest = arcs(res.length, ii)
                full += turns * res.count
                if rest:
                    start = _shift(m, r[v], res.offset % ii, ii, f"{unit}_{p.nodes[v]}")
                    for base in (0, ii):
                        intervals.append(m.NewFixedSizeIntervalVar(start + base, rest, f"{unit}_{p.nodes[v]}_{base}"))
                        demands.append(res.count)
        if full > cap:
            return False
        if intervals:
            if cap - full == 1 and all(dm == 1 for dm in demands):
                m.AddNoOverlap(intervals)
            else:
                m.AddCumulative(intervals, demands, cap - full)
    return True


def _shift(m: Any, rv: Any, off: int, ii: int, name: str) -> Any:
    """(r_v + off) mod ii as a variable (r_v itself when off == 0)."""
    if off == 0:
        return rv
    s = m.NewIntVar(0, ii - 1, f"slot_{name}")
    b = m.NewBoolVar(f"slotwrap_{name}")
    m.Add(s == rv + off - ii * b)
    return s
