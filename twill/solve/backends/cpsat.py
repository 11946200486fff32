"""OR-Tools CP-SAT backends: the modulo problem at a fixed II (Figure 4's constraints), two encodings.

``cpsat`` (``CpSatModulo``, the default): start t_v = II*k_v + r_v with an integer slot r_v, and
CAPACITY as circular arcs under one no-overlap / cumulative per unit (the encoding the joint backend
uses, ``cpsat_joint.add_folded_capacity``). It proves the minimal L of the sub-tiled attention loop
at U = 300 in about half a second, where the slot-boolean encoding below does not in a minute.

``cpsat-slots`` (``CpSatSlotsModulo``): Figure 4 as written, time-indexed. Figure 4 states the problem over the straight-line program of ceil(L/II) staggered copies with
booleans op[v, i, t]; CONSISTENCY makes every copy a shift of copy 0 by i*II, so copy 0 decides
everything. We write t_v = II*k_v + sum_r r*y[v, r] with one boolean y[v, r] per modulo slot
(UNIQUENESS: exactly one), an integer stage k_v, COMPLETION t_v + cycles_v <= L, DEPENDENCE
t_dst + II*dist >= t_src + delay, and CAPACITY summed per unit over the ops' slot booleans, folded
modulo II (the steady state holds every copy's usage). The objective is L.
"""
from __future__ import annotations

import time

from twill.errors import SolverError
from twill.solve.backends import slot_coefficients
from twill.solve.problem import ModuloAtII, Solution, SolveOptions


class CpSatSlotsModulo:
    name = "cpsat-slots"

    def is_installed(self) -> bool:
        try:
            import ortools.sat.python.cp_model  # noqa: F401
        except ImportError:
            return False
        return True

    def solve(self, q: ModuloAtII, options: SolveOptions) -> Solution:
        """Minimal L at ``q.ii``; statuses: optimal | feasible (time limit, gap in stats) |
        infeasible (proved) | timeout (no schedule found in time)."""
        from ortools.sat.python import cp_model

        p, ii, horizon = q.problem, q.ii, q.horizon
        t0 = time.perf_counter()
        m = cp_model.CpModel()
        y = [[m.NewBoolVar(f"y{v}_{r}") for r in range(ii)] for v in range(p.n)]
        k = [m.NewIntVar(0, horizon // ii, f"k{v}") for v in range(p.n)]
        t = [m.NewIntVar(0, horizon, f"t{v}") for v in range(p.n)]
        L = m.NewIntVar(0, horizon, "L")
        for v in range(p.n):
            m.AddExactlyOne(y[v])                                               # UNIQUENESS
            m.Add(t[v] == ii * k[v] + sum(r * y[v][r] for r in range(ii)))      # CONSISTENCY (slot + stage)
            m.Add(t[v] + p.cycles[v] <= L)                                      # COMPLETION
        for s, d, delay, dist in p.edges:
            m.Add(t[d] + ii * dist >= t[s] + delay)                             # DEPENDENCE
        for a, b in p.stage_order:
            m.Add(k[a] <= k[b])                                                 # STAGE ORDER
        for unit, cap in p.capacity:                                            # CAPACITY, modulo II
            per_slot: dict[int, list] = {}
            for v in range(p.n):
                for (r, slot), c in slot_coefficients(p.rrt[v], unit, ii).items():
                    per_slot.setdefault(slot, []).append(c * y[v][r])
            for terms in per_slot.values():
                m.Add(sum(terms) <= cap)
        m.Minimize(L)
        t_build = time.perf_counter() - t0
        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = max(0.001, options.time_limit)
        solver.parameters.num_workers = max(1, options.threads)
        solver.parameters.random_seed = options.seed
        st = solver.Solve(m)
        stats = {"seconds": time.perf_counter() - t0, "build_seconds": t_build,
                 "solve_seconds": time.perf_counter() - t0 - t_build, "solver_status": solver.StatusName(st)}
        if st == cp_model.MODEL_INVALID:
            raise SolverError("CP-SAT rejected the modulo model", where=p.name, found=m.Validate())
        if st == cp_model.INFEASIBLE:
            return Solution("infeasible", {}, stats)
        if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Solution("timeout", {}, stats)
        stats["bound"] = int(round(solver.BestObjectiveBound()))
        values = {"start": {p.nodes[v]: solver.Value(t[v]) for v in range(p.n)}, "length": solver.Value(L)}
        return Solution("optimal" if st == cp_model.OPTIMAL else "feasible", values, stats)


class CpSatModulo(CpSatSlotsModulo):
    name = "cpsat"

    def solve(self, q: ModuloAtII, options: SolveOptions) -> Solution:
        """Minimal L at ``q.ii`` (slot-integer encoding); statuses as ``CpSatSlotsModulo``."""
        from ortools.sat.python import cp_model

        from twill.solve.backends.cpsat_joint import add_folded_capacity

        p, ii, horizon = q.problem, q.ii, q.horizon
        t0 = time.perf_counter()
        m = cp_model.CpModel()
        L = m.NewIntVar(0, horizon, "L")
        t, k, feasible = [], [], max(p.cycles, default=0) <= horizon
        r = [m.NewIntVar(0, ii - 1, f"r_{p.nodes[v]}") for v in range(p.n)]
        for v in range(p.n):
            k.append(m.NewIntVar(0, max(0, horizon - p.cycles[v]) // ii, f"k_{p.nodes[v]}"))
            tv = m.NewIntVar(0, max(0, horizon - p.cycles[v]), f"t_{p.nodes[v]}")
            m.Add(tv == ii * k[v] + r[v])                                       # UNIQUENESS, CONSISTENCY
            m.Add(tv + p.cycles[v] <= L)                                        # COMPLETION
            t.append(tv)
        for s_, d, delay, dist in p.edges:
            m.Add(t[d] + ii * dist >= t[s_] + delay)                            # DEPENDENCE
        for a, b in p.stage_order:
            m.Add(k[a] <= k[b])                                                 # STAGE ORDER
        feasible = feasible and add_folded_capacity(m, p, r, ii)                # CAPACITY, modulo II
        m.Minimize(L)
        t_build = time.perf_counter() - t0
        if not feasible:
            return Solution("infeasible", {}, {"seconds": t_build, "build_seconds": t_build, "solve_seconds": 0.0,
                                               "solver_status": "INFEASIBLE (constant load)"})
        solver = cp_model.CpSolver()
        solver.parameters.max_time_in_seconds = max(0.001, options.time_limit)
        solver.parameters.num_workers = max(1, options.threads)
        solver.parameters.random_seed = options.seed
        st = solver.Solve(m)
        stats = {"seconds": time.perf_counter() - t0, "build_seconds": t_build,
                 "solve_seconds": time.perf_counter() - t0 - t_build, "solver_status": solver.StatusName(st)}
        if st == cp_model.MODEL_INVALID:
            raise SolverError("CP-SAT rejected the modulo model", where=p.name, found=m.Validate())
        if st == cp_model.INFEASIBLE:
            return Solution("infeasible", {}, stats)
        if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Solution("timeout", {}, stats)
        stats["bound"] = int(round(solver.BestObjectiveBound()))
        values = {"start": {p.nodes[v]: solver.Value(t[v]) for v in range(p.n)}, "length": solver.Value(L)}
        return Solution("optimal" if st == cp_model.OPTIMAL else "feasible", values, stats)
