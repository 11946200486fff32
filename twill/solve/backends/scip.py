"""SCIP backends (pyscipopt): the modulo problem at a fixed II, as a MILP with slot binaries, integer
stages and the length L as objective (Figure 4 as the ``cpsat-slots`` backend writes it), and the cost
normalisation ILP of section 5.2 (``twill.solve.normalize``). Both stop on a count of simplex iterations
(``scip_model``), not on the clock."""
from __future__ import annotations

import math
import time
from typing import Any

from twill.errors import SolverError
from twill.solve.budget import SCIP_LP_ITERATIONS_PER_SECOND, WALL_CAP, WORK_LIMIT
from twill.solve.problem import CostNormalization, ModuloAtII, Solution, SolveOptions, slot_coefficients

# SCIP statuses that prove the model has no solution (every variable is bounded, so "inforunbd"
# cannot mean unbounded).
_INFEASIBLE = {"infeasible", "inforunbd"}
# Statuses of a stopped search: a limit was hit; any solution found is feasible, not proved.
_STOPPED = {"timelimit", "memlimit", "nodelimit", "totalnodelimit", "stallnodelimit", "gaplimit",
            "sollimit", "bestsollimit", "restartlimit", "userinterrupt", "terminate", "unknown"}


def scip_model(name: str, options: SolveOptions) -> Any:
    """A quiet SCIP model for one call under ``options``: at most ``time_limit`` deterministic seconds of
    simplex iterations (``budget.SCIP_LP_ITERATIONS_PER_SECOND`` of them a second, the limit of each LP
    solve too, counted at every LP solved and node: past them the solve is interrupted, at the same point on
    every machine, so a call makes at most about twice its iterations), the wall clock
    (``limits/time``) only as the safety cap; seed ``options.seed``. Ctrl-C is left to Python: SCIP's own
    handler (``misc/catchctrlc``) would end the solve as "userinterrupt", a stopped search that looks
    like a time limit, and the command would go on."""
    from pyscipopt import Model

    m = Model(name)
    m.hideOutput()
    m.setParam("limits/time", max(0.001, float(options.wall_seconds)))
    m.setParam("misc/catchctrlc", False)
    m.setParam("randomization/randomseedshift", int(options.seed))
    iterations = max(1, int(float(options.time_limit) * SCIP_LP_ITERATIONS_PER_SECOND))
    m.setParam("lp/iterlim", iterations)           # no single LP runs past them either
    m.setParam("lp/rootiterlim", iterations)
    m.includeEventhdlr(_work_limit(iterations), "twill_work_limit", "interrupts the solve past its LP iterations")
    return m


def _work_limit(iterations: int) -> Any:
    """An event handler that interrupts the solve once SCIP has made ``iterations`` simplex iterations."""
    from pyscipopt import SCIP_EVENTTYPE, Eventhdlr

    events = SCIP_EVENTTYPE.LPSOLVED | SCIP_EVENTTYPE.NODESOLVED

    class WorkLimit(Eventhdlr):  # type: ignore[misc]
        def eventinit(self) -> None:
            self.model.catchEvent(events, self)

        def eventexit(self) -> None:
            self.model.dropEvent(events, self)

        def eventexec(self, event: Any) -> None:
            if self.model.getNLPIterations() >= iterations:
                self.model.interruptSolve()

    return WorkLimit()


def work_stats(m: Any, status: str) -> dict[str, Any]:
    """``work`` (deterministic seconds: the simplex iterations made) and, when a limit stopped the solve,
    ``stopped_by``: the work limit (our interrupt) or the wall-clock cap."""
    out: dict[str, Any] = {"work": m.getNLPIterations() / SCIP_LP_ITERATIONS_PER_SECOND}
    if status == "userinterrupt":
        out["stopped_by"] = WORK_LIMIT
    elif status == "timelimit":
        out["stopped_by"] = WALL_CAP
    return out


class ScipModulo:
    name = "scip"

    def solve(self, q: ModuloAtII, options: SolveOptions) -> Solution:
        """Minimal L at ``q.ii``; same statuses as the CP-SAT backend."""
        from pyscipopt import quicksum

        p, ii, horizon = q.problem, q.ii, q.horizon
        t0 = time.perf_counter()
        m = scip_model("modulo", options)
        y = [[m.addVar(vtype="B", name=f"y{v}_{r}") for r in range(ii)] for v in range(p.n)]
        k = [m.addVar(vtype="I", lb=0, ub=horizon // ii, name=f"k{v}") for v in range(p.n)]
        t = [ii * k[v] + quicksum(r * y[v][r] for r in range(ii)) for v in range(p.n)]
        L = m.addVar(vtype="I", lb=0, ub=horizon, name="L")
        for v in range(p.n):
            m.addCons(quicksum(y[v]) == 1)                                      # UNIQUENESS
            m.addCons(t[v] + p.cycles[v] <= L)                                  # COMPLETION
            m.addCons(t[v] <= horizon)
        for s, d, delay, dist in p.edges:
            m.addCons(t[d] + ii * dist >= t[s] + delay)                         # DEPENDENCE
        for a, b in p.stage_order:
            m.addCons(k[a] <= k[b])                                             # STAGE ORDER
        for unit, cap in p.capacity:                                            # CAPACITY, modulo II
            per_slot: dict[int, list] = {}
            for v in range(p.n):
                for (r, slot), c in slot_coefficients(p.rrt[v], unit, ii).items():
                    per_slot.setdefault(slot, []).append(c * y[v][r])
            for terms in per_slot.values():
                m.addCons(quicksum(terms) <= cap)
        m.setObjective(L, "minimize")
        t_build = time.perf_counter() - t0
        m.optimize()
        status = m.getStatus()
        stats = {"seconds": time.perf_counter() - t0, "build_seconds": t_build,
                 "solve_seconds": time.perf_counter() - t0 - t_build, "solver_status": status, **work_stats(m, status)}
        if status in _INFEASIBLE:
            return Solution("infeasible", {}, stats)
        if status != "optimal" and status not in _STOPPED:
            raise SolverError("SCIP ended the modulo model in an unexpected state", where=p.name, found=status)
        if m.getNSols() == 0:
            return Solution("timeout", {}, stats)
        start = {p.nodes[v]: int(round(ii * m.getVal(k[v]) + sum(r * m.getVal(y[v][r]) for r in range(ii))))
                 for v in range(p.n)}
        stats["bound"] = int(math.ceil(m.getDualbound() - 1e-6))
        values = {"start": start, "length": int(round(m.getVal(L)))}
        return Solution("optimal" if status == "optimal" else "feasible", values, stats)


class ScipNormalize:
    name = "scip"

    def solve(self, q: CostNormalization, options: SolveOptions) -> Solution:
        """``values["units"]``: C' in the order of ``q.values``; the tie-break toward the largest
        sum weighs less than one unit of F, an integer at every solution. Statuses optimal |
        feasible (a solution, not proved) | timeout (none found)."""
        from pyscipopt import quicksum

        vals, bound = q.values, q.bound
        m = scip_model("normalize", options)
        c = [m.addVar(vtype="I", lb=1, ub=bound, name=f"c{i}") for i in range(len(vals))]
        F = m.addVar(vtype="C", lb=0, name="F")
        for i in range(len(vals)):
            for j in range(i + 1, len(vals)):
                expr = vals[i] * c[j] - vals[j] * c[i]
                m.addCons(expr <= F)
                m.addCons(-F <= expr)
        m.addCons(quicksum(c) <= bound)
        m.addCons(quicksum(c) >= 1)
        m.setObjective(F - quicksum(c) / (bound + 1), "minimize")
        m.optimize()
        status = m.getStatus()
        stats = {"solver_status": status, **work_stats(m, status)}
        if m.getNSols() == 0:
            return Solution("timeout", {}, stats)
        units = [int(round(m.getVal(x))) for x in c]
        return Solution("optimal" if status == "optimal" else "feasible", {"units": units}, stats)
