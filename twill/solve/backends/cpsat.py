"""OR-Tools CP-SAT backends: the modulo problem at a fixed II (Figure 4's constraints), two encodings.

``cpsat`` (``CpSatModulo``, the default): start t_v = II*k_v + r_v with an integer slot r_v, and
CAPACITY as circular arcs under one no-overlap / cumulative per unit (the encoding the joint backend
uses, ``cpsat_base.add_folded_capacity``). It proves the minimal L of the sub-tiled attention loop
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
from typing import Any

import networkx as nx

from twill.errors import SolverError
from twill.solve.backends.cpsat_base import add_folded_capacity, cpsat_solver, work_stats
from twill.solve.problem import (ModuloAtII, ModuloIIRange, ModuloProblem, Solution, SolveOptions,
                                 slot_coefficients)


def range_floor(p: ModuloProblem) -> int:
    """The smallest II ``smallest_ii`` encodes: above every reservation's offset and length, so that
    each reservation folds onto the slot circle as one arc with at most one wrap."""
    sizes = [max(res.offset, res.length) for rs in p.rrt for res in rs if res.count and res.length]
    return max(sizes, default=0) + 1


def stage_components(p: ModuloProblem) -> list[tuple[list[int], list[tuple[int, int, int, int]], list[tuple[int, int]]]]:
    """The strongly connected components of the dependence edges and stage-order pairs that hold a
    cycle: ``(nodes, dependence edges inside, stage-order pairs inside)`` each.

    With the slots fixed, the stages k_v (t_v = II k_v + r_v) must satisfy k_d - k_s >= c_e for
    each edge and k_a <= k_b for each pair. Adding one constant to every k of a component keeps
    the constraints inside it, so the components can be raised one after another in topological
    order until every edge between them holds: a schedule exists at II iff some slots meet
    CAPACITY and each component's own constraints have a solution.
    """
    g = nx.DiGraph()
    g.add_nodes_from(range(p.n))
    g.add_edges_from((s, d) for s, d, _, _ in p.edges)
    g.add_edges_from(p.stage_order)
    out = []
    for comp in nx.strongly_connected_components(g):
        inside = set(comp)
        edges = [e for e in p.edges if e[0] in inside and e[1] in inside]
        pairs = [(a, b) for a, b in p.stage_order if a in inside and b in inside]
        if len(inside) > 1 or edges:
            out.append((sorted(inside), edges, pairs))
    return out


def stage_span(nodes: list[int], edges: list[tuple[int, int, int, int]], pairs: list[tuple[int, int]],
               lo: int, hi: int, budget: int = 200_000) -> int:
    """A bound K on the stages of a cyclic component at every II in [lo, hi]: the least solution of
    its stage constraints (see ``stage_components``) has every k_v in [0, K].

    k_v of the least solution is the increment c(P) of a heaviest path P ending at v (from some u,
    where k starts at 0); as no cycle is positive in a feasible system, P is simple. Two bounds on
    c(P), u -> v: (1) each increment c_e = ceil((delay - II dist + r_src - r_dst) / II) is at most
    ceil(delay / lo) + 1 - dist (a stage-order pair's is 0), so c(P) <= the heaviest simple path
    under those (depth-first search; past ``budget`` extensions, the sum of the n - 1 largest); (2)
    any path Q back from v to u closes a walk of increment c(P) + c(Q) <= 0, and c_e is at least
    ceil((delay + 1) / hi) - 1 - dist, so c(P) <= -(the heaviest Q under those lower bounds). K is
    the largest over u, v of the smaller of the two: stage-order pairs that run back along a
    dependence chain pin the chain's stages together, which (1) alone cannot see.

    Examples
    --------
    >>> stage_span([0, 1], [(0, 1, 5, 0), (1, 0, 1, 1)], [], lo=4, hi=8)     # min(2 + 1, -(0 - 1)) = 1
    1
    >>> stage_span([0, 1], [(0, 1, 5, 0)], [(1, 0)], lo=4, hi=8)             # stage(1) <= stage(0): 0
    0
    """
    ub: dict[tuple[int, int], int] = {}
    lb: dict[tuple[int, int], int] = {}
    for s_, d, delay, dist in edges:
        up, down = -(-delay // lo) + 1 - dist, -(-(delay + 1) // hi) - 1 - dist
        ub[(s_, d)] = max(ub.get((s_, d), up), up)
        lb[(s_, d)] = max(lb.get((s_, d), down), down)
    for a, b in pairs:
        ub[(a, b)] = max(ub.get((a, b), 0), 0)
        lb[(a, b)] = max(lb.get((a, b), 0), 0)
    # the bound depends on II only through these weights, which most neighbouring IIs share (a joint search asks
    # for the component's bound at every II it tries: 222 calls for liger_jsd, 50 ms each)
    key = (tuple(nodes), tuple(sorted(ub.items())), tuple(sorted(lb.items())), budget)
    if key not in _SPANS:
        if len(_SPANS) >= 4096:
            _SPANS.clear()
        _SPANS[key] = _span(nodes, ub, lb, budget)
    return _SPANS[key]


_SPANS: dict[tuple, int] = {}


def _span(nodes: list[int], ub: dict[tuple[int, int], int], lb: dict[tuple[int, int], int], budget: int) -> int:
    """``stage_span`` of the weights it derives (the upper and lower bounds of each edge's stage increment)."""
    # (1) heaviest simple paths under the upper bounds, from every root.
    succ: dict[int, list[tuple[int, int]]] = {}
    for (s_, d), w in ub.items():
        if s_ != d:
            succ.setdefault(s_, []).append((d, w))
    steps = sorted((max(0, w) for w in ub.values()), reverse=True)
    loose = sum(steps[: len(nodes) - 1])
    up_path = {(u, v): (0 if u == v else None) for u in nodes for v in nodes}
    left = budget
    for root in nodes:
        stack = [(root, 0, frozenset([root]), iter(succ.get(root, ())))]
        while stack and left >= 0:
            v, total, seen, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                stack.pop()
                continue
            left -= 1
            d, w = nxt
            if d not in seen:
                key = (root, d)
                up_path[key] = total + w if up_path[key] is None else max(up_path[key], total + w)
                stack.append((d, total + w, seen | {d}, iter(succ.get(d, ()))))
    if left < 0:
        up_path = {key: loose for key in up_path}
    # (2) heaviest paths under the lower bounds (no cycle is positive there: Bellman-Ford).
    down_path: dict[tuple[int, int], int] = {}
    for root in nodes:
        far = {root: 0}
        for _ in range(len(nodes)):
            changed = False
            for (s_, d), w in lb.items():
                if s_ in far and (d not in far or far[s_] + w > far[d]):
                    far[d] = far[s_] + w
                    changed = True
            if not changed:
                break
        for v, w in far.items():
            down_path[(root, v)] = w
    best = 0
    for u in nodes:
        for v in nodes:
            bounds = [b for b in (up_path.get((u, v)), loose) if b is not None]
            if (v, u) in down_path:
                bounds.append(-down_path[(v, u)])
            best = max(best, min(bounds))
    return max(0, best)


def _run(m: Any, options: SolveOptions, t0: float, what: str, where: str) -> tuple[str, Any, dict[str, Any]]:
    """Solve ``m`` (built since ``t0``): the status (optimal | feasible | infeasible | timeout), the
    solver (for the values) and the stats every modulo backend reports; an invalid model raises."""
    from ortools.sat.python import cp_model

    t_build = time.perf_counter() - t0
    solver = cpsat_solver(options)
    st = solver.Solve(m)
    stats = {"seconds": time.perf_counter() - t0, "build_seconds": t_build,
             "solve_seconds": time.perf_counter() - t0 - t_build, "solver_status": solver.StatusName(st),
             **work_stats(solver, st)}
    if st == cp_model.MODEL_INVALID:
        raise SolverError(f"CP-SAT rejected the {what}", where=where, found=m.Validate())
    status = {cp_model.OPTIMAL: "optimal", cp_model.FEASIBLE: "feasible", cp_model.INFEASIBLE: "infeasible"}.get(st, "timeout")
    if status in ("optimal", "feasible"):
        stats["bound"] = int(round(solver.BestObjectiveBound()))
    return status, solver, stats


class CpSatSlotsModulo:
    name = "cpsat-slots"

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
        status, solver, stats = _run(m, options, t0, "modulo model", p.name)
        if status not in ("optimal", "feasible"):
            return Solution(status, {}, stats)
        values = {"start": {p.nodes[v]: solver.Value(t[v]) for v in range(p.n)}, "length": solver.Value(L)}
        return Solution(status, values, stats)


class CpSatModulo(CpSatSlotsModulo):
    name = "cpsat"

    def solve(self, q: ModuloAtII, options: SolveOptions) -> Solution:
        """Minimal L at ``q.ii`` (slot-integer encoding); statuses as ``CpSatSlotsModulo``."""
        from ortools.sat.python import cp_model

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
        for v, start in enumerate(q.hint):
            m.AddHint(t[v], start)
        m.Minimize(L)
        if not feasible:
            t_build = time.perf_counter() - t0
            return Solution("infeasible", {}, {"seconds": t_build, "build_seconds": t_build, "solve_seconds": 0.0,
                                               "solver_status": "INFEASIBLE (constant load)"})
        status, solver, stats = _run(m, options, t0, "modulo model", p.name)
        if status not in ("optimal", "feasible"):
            return Solution(status, {}, stats)
        values = {"start": {p.nodes[v]: solver.Value(t[v]) for v in range(p.n)}, "length": solver.Value(L)}
        return Solution(status, values, stats)

    range_floor = staticmethod(range_floor)

    def smallest_ii(self, q: ModuloIIRange, options: SolveOptions) -> Solution:
        """The smallest II in [q.lo, q.hi] that admits a modulo schedule, in one CP-SAT model with II a
        variable: statuses optimal (every II below it in the range refuted), feasible (an II found,
        smaller ones open; ``bound`` in stats), infeasible (none in the range), timeout.

        Encoding: slot r_v in [0, II) for every op; CAPACITY as ``add_folded_capacity`` with II a
        variable (each arc (r_v + offset) mod II of length l < II posted at s and s + II under one
        no-overlap / cumulative); stages only inside the cyclic components (``stage_components``),
        k_v in [0, K] with K the longest simple path of stage increments c_e <= ceil(delay / lo) + 1 -
        distance, which bounds the least solution of the component's difference constraints. Learned
        clauses carry across IIs, which separate fixed-II refutations do not: the Blackwell sub-tiled FA
        loop's 22 IIs below 200 take one model instead of 22.
        """
        p, lo, hi = q.problem, q.lo, q.hi
        if lo < range_floor(p):
            raise SolverError("II range below what the one-model encoding folds", where=p.name,
                              expected=f"lo >= {range_floor(p)}", found=str(lo))
        from ortools.sat.python import cp_model

        t0 = time.perf_counter()
        m = cp_model.CpModel()
        ii = m.NewIntVar(lo, hi, "II")
        r = [m.NewIntVar(0, hi - 1, f"r_{p.nodes[v]}") for v in range(p.n)]
        for v in range(p.n):
            m.Add(r[v] <= ii - 1)
        for unit, cap in p.capacity:                                                # CAPACITY, modulo II
            intervals, demands = [], []
            for v in range(p.n):
                for res in p.rrt[v]:
                    if res.unit != unit or not res.count or not res.length:
                        continue
                    start = r[v]
                    if res.offset:
                        start = m.NewIntVar(0, hi - 1, f"slot_{unit}_{p.nodes[v]}")
                        wrap = m.NewBoolVar(f"wrap_{unit}_{p.nodes[v]}")
                        m.Add(start == r[v] + res.offset - ii).OnlyEnforceIf(wrap)
                        m.Add(start == r[v] + res.offset).OnlyEnforceIf(wrap.Not())
                        m.Add(start <= ii - 1)
                    again = m.NewIntVar(lo, 2 * hi - 1, f"turn_{unit}_{p.nodes[v]}")
                    m.Add(again == start + ii)
                    for s in (start, again):
                        intervals.append(m.NewFixedSizeIntervalVar(s, res.length, f"{unit}_{p.nodes[v]}"))
                        demands.append(res.count)
            if intervals:
                if cap == 1 and all(dm == 1 for dm in demands):
                    m.AddNoOverlap(intervals)
                else:
                    m.AddCumulative(intervals, demands, cap)
        for nodes, edges, pairs in stage_components(p):                            # DEPENDENCE, STAGE ORDER
            top = stage_span(nodes, edges, pairs, lo, hi)
            k, z = {}, {}
            for v in nodes:
                k[v] = m.NewIntVar(0, top, f"k_{p.nodes[v]}")
                z[v] = m.NewIntVar(0, top * hi, f"kII_{p.nodes[v]}")                # II * k_v
                if top == 0:
                    m.Add(z[v] == 0)
                    continue
                pick = [m.NewBoolVar(f"k_{p.nodes[v]}_{j}") for j in range(top + 1)]
                m.AddExactlyOne(pick)
                m.Add(k[v] == sum(j * b for j, b in enumerate(pick)))
                for j, b in enumerate(pick):
                    m.Add(z[v] == j * ii).OnlyEnforceIf(b)
            for s, d, delay, dist in edges:
                m.Add(z[d] + r[d] + dist * ii >= z[s] + r[s] + delay)
            for a, b in pairs:
                m.Add(k[a] <= k[b])
        m.Minimize(ii)
        status, solver, stats = _run(m, options, t0, "II-range model", p.name)
        if status not in ("optimal", "feasible"):
            return Solution(status, {}, stats)
        return Solution(status, {"ii": solver.Value(ii), "slots": {v: solver.Value(r[v]) for v in range(p.n)}}, stats)
