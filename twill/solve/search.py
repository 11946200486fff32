"""Algorithm 1: seed with the optimal modulo II, then search (I, L) upward for a joint schedule."""
from __future__ import annotations

import math
import time
from typing import Any, Callable

from twill.graph.model import LoopGraph
from twill.schedule.model import FEASIBLE, INFEASIBLE, OPTIMAL, TIMEOUT, Schedule
from twill.solve.joint import JointProblem, solve_joint_cpsat
from twill.solve.modulo import modulo_schedule
from twill.solve.problem import ModuloProblem, SolveOptions


def joint_search(g: LoopGraph, machine: Any, opts: Any, seed: Schedule | None = None,
                 progress: Callable[[str], None] | None = None, max_tries: int = 20,
                 total_time: float | None = None) -> Schedule:
    """The joint software pipeline and warp assignment with the smallest (I, L) (Algorithm 1).

    For each I from the modulo ILP's optimum upward, the stage count S = ceil(L_M / I) of that I's
    optimal modulo schedule is fixed and the shortest L with ceil(L / I) = S is found in one solve
    (the inner loop over L, proved minimal by the solver); an infeasible I moves on to I + 1.
    ``optimal`` only when every smaller (I, S) tried was proved infeasible and the last solve proved L.
    """
    say = progress or (lambda _m: None)
    norm = (seed.get("normalization") if seed else None) or {}
    scale = float(norm.get("scale", 1.0))
    p = JointProblem.from_graph(g, machine, scale=scale, num_warps=getattr(opts, "num_warps", None),
                                warp_groups=getattr(opts, "warp_groups", None), reg_limit=getattr(opts, "reg_limit", None),
                                no_cross_warp=getattr(opts, "no_cross_warp", False))
    solve_opts = SolveOptions(time_limit=getattr(opts, "time_limit", 60.0))
    mp = ModuloProblem.from_graph(g, machine.units)
    t0 = time.perf_counter()
    budget = total_time if total_time is not None else 10 * solve_opts.time_limit
    modulo = seed if seed is not None and seed.status in (OPTIMAL, FEASIBLE) else modulo_schedule(mp, "cpsat", solve_opts)
    if modulo.status not in (OPTIMAL, FEASIBLE):
        return modulo
    trace: list[dict[str, Any]] = []
    ii, length = modulo.ii, modulo.length
    proved = modulo.status == OPTIMAL
    for _ in range(max_tries):
        stages = max(1, math.ceil(length / ii))
        elapsed = time.perf_counter() - t0
        if elapsed > budget:
            break
        say(f"search: I={ii} L<={stages * ii} ({stages} stages), {elapsed:.1f}s")
        sol = solve_joint_cpsat(p, ii, stages, solve_opts, min_length=length)
        trace.append({"ii": ii, "length": [max(length, (stages - 1) * ii + 1), stages * ii], "stages": stages,
                      "result": "sat" if sol.status in (OPTIMAL, FEASIBLE) else sol.status.replace("infeasible", "unsat"),
                      "seconds": round(sol.stats["seconds"], 3), "found_length": sol.values.get("length")})
        if sol.status in (OPTIMAL, FEASIBLE):
            status = OPTIMAL if proved and sol.status == OPTIMAL else FEASIBLE
            groups = {p.nodes[v]: sol.values["warp"][p.nodes[v]] for v in range(p.n)}
            cross = [{"src": p.nodes[s], "dst": p.nodes[d], "delay": p.spill[s]} for s, d, _, _, _ in p.edges
                     if s != d and groups[p.nodes[s]] != groups[p.nodes[d]]]
            pressure = _pressure(p, sol.values["copies"], groups)
            return Schedule(ii=ii, length=sol.values["length"],
                            start=tuple((n, sol.values["start"][n]) for n in p.nodes), status=status,
                            lower_bound=modulo.lower_bound, solve_seconds=time.perf_counter() - t0 + modulo.solve_seconds,
                            backend="cpsat-joint", gap=None if status == OPTIMAL else 0.0,
                            warp=tuple((n, groups[n]) for n in p.nodes),
                            extra=tuple(dict(modulo.extra).items()) + (
                                ("search", trace), ("cross_warp", cross), ("memory", pressure),
                                ("warp_groups", {"compute": p.warp_groups, "variable_latency": p.total_groups - 1 if p.has_vl else None,
                                                 "reg_limit_bytes": p.reg_limit}),
                                ("modulo_seed", {"ii": modulo.ii, "length": modulo.length, "status": modulo.status}),
                                ("streaming_depth", {n: max(1, math.ceil(sol.values["length"] / ii))
                                                     for n, vl, c in zip(p.nodes, p.variable_latency, p.cycles) if vl and c == 0})))
        if sol.status == TIMEOUT:
            proved = False
        # Next I, seeded with that I's optimal modulo schedule (Algorithm 1, line 5).
        ii += 1
        nxt = modulo_schedule(mp, "cpsat", solve_opts, min_ii=ii)
        if nxt.status not in (OPTIMAL, FEASIBLE):
            break
        ii, length = nxt.ii, nxt.length
        if nxt.status != OPTIMAL:
            proved = False
    status = TIMEOUT if (not proved or time.perf_counter() - t0 > budget) else INFEASIBLE
    return Schedule(ii=0, length=0, start=(), status=status, lower_bound=modulo.lower_bound,
                    solve_seconds=time.perf_counter() - t0, backend="cpsat-joint",
                    extra=(("search", trace),))


def _pressure(p: JointProblem, copies: dict[str, int], groups: dict[str, int]) -> dict[str, Any]:
    regs: dict[int, int] = {}
    for v, n in enumerate(p.nodes):
        regs[groups[n]] = regs.get(groups[n], 0) + p.regs[v] * copies[n]
    return {"registers": {"per_wg_limit": p.reg_limit, "per_wg": {str(g): b for g, b in sorted(regs.items())}},
            "smem": {"limit": p.smem_limit, "used": sum(p.smem[v] * copies[n] for v, n in enumerate(p.nodes))},
            "tmem": {"limit": p.tmem_limit, "used": sum(p.tmem[v] * copies[n] for v, n in enumerate(p.nodes))},
            "copies": copies}
