"""OR-Tools CP-SAT backend for the modulo scheduling problem at a fixed II."""
from __future__ import annotations

import time

from twill.solve.backends import slot_coefficients
from twill.solve.problem import ModuloProblem, Solution, SolveOptions


class CpSatModulo:
    name = "cpsat"

    def is_installed(self) -> bool:
        try:
            import ortools.sat.python.cp_model  # noqa: F401
        except ImportError:
            return False
        return True

    def solve(self, p: ModuloProblem, ii: int, horizon: int, options: SolveOptions) -> Solution:
        from ortools.sat.python import cp_model

        t0 = time.perf_counter()
        m = cp_model.CpModel()
        kmax = horizon // ii + 1
        y = [[m.NewBoolVar(f"y{v}_{r}") for r in range(ii)] for v in range(p.n)]
        k = [m.NewIntVar(0, kmax, f"k{v}") for v in range(p.n)]
        t = [m.NewIntVar(0, horizon, f"t{v}") for v in range(p.n)]
        L = m.NewIntVar(0, horizon, "L")
        for v in range(p.n):
            m.AddExactlyOne(y[v])                                               # UNIQUENESS
            m.Add(t[v] == ii * k[v] + sum(r * y[v][r] for r in range(ii)))      # t = ii*stage + slot
            m.Add(t[v] + p.cycles[v] <= L)                                      # COMPLETION
        for s, d, delay, dist in p.edges:
            m.Add(t[d] + ii * dist >= t[s] + delay)                             # DEPENDENCE
        for unit, cap in p.capacity:                                            # modulo CAPACITY
            per_slot: dict[int, list] = {}
            for v in range(p.n):
                for (r, slot), c in slot_coefficients(p.rrt[v], unit, ii).items():
                    per_slot.setdefault(slot, []).append(c * y[v][r])
            for terms in per_slot.values():
                m.Add(sum(terms) <= cap)
        m.Minimize(L)
        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = options.time_limit
        solver.parameters.num_workers = max(1, options.threads)
        solver.parameters.random_seed = options.seed
        st = solver.Solve(m)
        stats = {"seconds": time.perf_counter() - t0, "solver_status": solver.StatusName(st)}
        if st == cp_model.INFEASIBLE:
            return Solution("infeasible", {}, stats)
        if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Solution("timeout", {}, stats)
        stats["bound"] = solver.BestObjectiveBound()
        values = {"start": {p.nodes[v]: solver.Value(t[v]) for v in range(p.n)}, "length": solver.Value(L)}
        return Solution("optimal" if st == cp_model.OPTIMAL else "feasible", values, stats)
