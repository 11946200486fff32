"""SCIP backend (pyscipopt) for the modulo scheduling problem at a fixed II: the same time-indexed
formulation as the CP-SAT backend, as a MILP."""
from __future__ import annotations

import time

from twill.solve.backends import slot_coefficients
from twill.solve.problem import ModuloProblem, Solution, SolveOptions


class ScipModulo:
    name = "scip"

    def is_installed(self) -> bool:
        try:
            import pyscipopt  # noqa: F401
        except ImportError:
            return False
        return True

    def solve(self, p: ModuloProblem, ii: int, horizon: int, options: SolveOptions) -> Solution:
        from pyscipopt import Model, quicksum

        t0 = time.perf_counter()
        m = Model("modulo")
        m.hideOutput()
        m.setParam("limits/time", options.time_limit)
        m.setParam("randomization/randomseedshift", options.seed)
        kmax = horizon // ii + 1
        y = [[m.addVar(vtype="B", name=f"y{v}_{r}") for r in range(ii)] for v in range(p.n)]
        k = [m.addVar(vtype="I", lb=0, ub=kmax, name=f"k{v}") for v in range(p.n)]
        t = [ii * k[v] + quicksum(r * y[v][r] for r in range(ii)) for v in range(p.n)]
        L = m.addVar(vtype="I", lb=0, ub=horizon, name="L")
        for v in range(p.n):
            m.addCons(quicksum(y[v]) == 1)
            m.addCons(t[v] + p.cycles[v] <= L)
            m.addCons(t[v] <= horizon)
        for s, d, delay, dist in p.edges:
            m.addCons(t[d] + ii * dist >= t[s] + delay)
        for unit, cap in p.capacity:
            per_slot: dict[int, list] = {}
            for v in range(p.n):
                for (r, slot), c in slot_coefficients(p.rrt[v], unit, ii).items():
                    per_slot.setdefault(slot, []).append(c * y[v][r])
            for terms in per_slot.values():
                m.addCons(quicksum(terms) <= cap)
        m.setObjective(L, "minimize")
        m.optimize()
        status = m.getStatus()
        stats = {"seconds": time.perf_counter() - t0, "solver_status": status}
        if status == "infeasible":
            return Solution("infeasible", {}, stats)
        if m.getNSols() == 0:
            return Solution("timeout", {}, stats)
        start = {p.nodes[v]: int(round(ii * m.getVal(k[v]) + sum(r * m.getVal(y[v][r]) for r in range(ii))))
                 for v in range(p.n)}
        stats["bound"] = m.getDualbound()
        values = {"start": start, "length": int(round(m.getVal(L)))}
        return Solution("optimal" if status == "optimal" else "feasible", values, stats)
