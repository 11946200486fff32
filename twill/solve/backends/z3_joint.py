"""z3 backend for the joint problem, in QF_LIA (``twill.solve.joint_problem`` states the semantics).

Encoding. As in the CP-SAT backend, op v has an integer start t_v = I*k_v + r_v (CONSISTENCY makes
this equivalent to Figure 4's booleans op[v, i, t]) and an integer warp group w_v (WARP UNIQUENESS;
VARIABLE LATENCY fixes its range). Folded modulo I, a reservation or a lifetime is an arc of the slot
circle plus whole turns; ``covers(arc, x)`` is the linear test ``(x - start) mod I < length``
written with one ``If``. A sum of arcs is largest at the start of one of them, so every capacity
family (units, memories, registers per group) is checked at the arc starts only: O(arcs^2) linear
terms, independent of I. Capacity 1 uses pairwise separation instead. L is fixed per check and
raised one by one (Algorithm 1's inner loop), on one incremental solver (push/pop).
"""
from __future__ import annotations

import time
from typing import Any

from twill.solve.joint_problem import JointAtIL, arcs
from twill.solve.problem import Solution, SolveOptions


class Z3Joint:
    name = "z3"

    def solve(self, q: JointAtIL, options: SolveOptions) -> Solution:
        """The smallest L in [q.lo, q.hi] with a joint schedule at q.ii, trying each L in turn;
        ``stats["lengths"]`` lists each L tried with sat | unsat | unknown and its seconds."""
        import z3

        t0 = time.perf_counter()
        solver = z3.SolverFor("QF_LIA")
        solver.set("random_seed", options.seed)
        built = _build(z3, solver, q)
        stats: dict[str, Any] = {"build_seconds": time.perf_counter() - t0, "lengths": []}
        if built is None:
            stats.update(seconds=time.perf_counter() - t0, solver_status="unsat (constant load)")
            return Solution("infeasible", {}, stats)
        t, w, L = built
        deadline = t0 + options.time_limit
        unknown = False
        for length in range(q.lo, q.hi + 1):
            left = deadline - time.perf_counter()
            if left <= 0:
                unknown = True
                break
            solver.set("timeout", max(1, int(left * 1000)))
            solver.push()
            solver.add(L == length)
            t1 = time.perf_counter()
            res = solver.check()
            stats["lengths"].append({"length": length, "result": str(res), "seconds": round(time.perf_counter() - t1, 4)})
            if res == z3.sat:
                mdl = solver.model()
                p = q.problem
                values = {"start": {p.nodes[v]: mdl.eval(t[v], model_completion=True).as_long() for v in range(p.n)},
                          "warp": {p.nodes[v]: (w[v] if isinstance(w[v], int) else
                                                mdl.eval(w[v], model_completion=True).as_long()) for v in range(p.n)},
                          "length": length}
                stats.update(seconds=time.perf_counter() - t0, solver_status="sat", bound=q.lo if unknown else length)
                return Solution("feasible" if unknown else "optimal", values, stats)
            solver.pop()
            if res != z3.unsat:
                unknown = True
        stats.update(seconds=time.perf_counter() - t0, solver_status="unknown" if unknown else "unsat")
        return Solution("timeout" if unknown else "infeasible", {}, stats)


def _build(z3: Any, S: Any, q: JointAtIL) -> tuple[list, list, Any] | None:
    p, ii = q.problem, q.ii
    n = p.n
    L = z3.Int("L")
    S.add(L >= q.lo, L <= q.hi)
    r = [z3.Int(f"r_{p.nodes[v]}") for v in range(n)]
    t, ks = [], []
    for v in range(n):
        k = z3.Int(f"k_{p.nodes[v]}")
        S.add(r[v] >= 0, r[v] < ii, k >= 0)                                   # UNIQUENESS, CONSISTENCY
        tv = ii * k + r[v]
        S.add(tv + p.cycles[v] <= L)                                          # COMPLETION
        t.append(tv)
        ks.append(k)
    for a, b in p.stage_order:
        S.add(ks[a] <= ks[b])                                                 # STAGE ORDER (compiler)

    w: list[Any] = []                                                         # WARP UNIQUENESS, VL
    for v in range(n):
        groups = p.groups_of(v)
        if len(groups) == 1:
            w.append(groups[0])
            continue
        wv = z3.Int(f"w_{p.nodes[v]}")
        S.add(z3.Or([wv == grp for grp in groups]))
        w.append(wv)
    seen_max: Any = None                                                      # symmetry of compute groups
    for v in range(n):
        if isinstance(w[v], int) or p.single_warp[v]:
            continue
        if seen_max is None:
            S.add(w[v] == 0)
            seen_max = w[v]
        else:
            S.add(w[v] <= seen_max + 1)
            seen_max = z3.If(w[v] > seen_max, w[v], seen_max)

    def same(a: int, b: int) -> Any:
        if isinstance(w[a], int) and isinstance(w[b], int):
            return w[a] == w[b]
        if not set(p.groups_of(a)) & set(p.groups_of(b)):
            return False
        return w[a] == w[b]

    def covers(start: Any, length: Any, x: Any) -> Any:
        """(x - start) mod ii < length, for start, x in [0, ii)."""
        return z3.If(x >= start, x - start < length, x - start + ii < length)

    for s, d, delay, dist in p.edges:                                         # DEPENDENCE, CROSS-WARP SPILLS
        S.add(t[d] + ii * dist >= t[s] + delay)
        if s == d:
            continue
        sg = same(s, d)
        if not p.cross_warp_allowed(s, d):
            if sg is False:
                return None
            S.add(sg)
            continue
        if p.spill[s] and sg is not True:
            S.add(z3.Implies(z3.Not(sg), t[d] + ii * dist >= t[s] + delay + p.spill[s]))

    for unit, cap in p.capacity:                                              # CAPACITY
        full, arcs_u = 0, []
        for v in range(n):
            for res in p.rrt[v]:
                if res.unit != unit or not res.count or not res.length:
                    continue
                turns, rest = arcs(res.length, ii)
                full += turns * res.count
                if rest:
                    off = res.offset % ii
                    start = r[v] if off == 0 else z3.If(r[v] + off >= ii, r[v] + off - ii, r[v] + off)
                    arcs_u.append((start, rest, res.count))
        room = cap - full
        if room < 0 or any(c > room for _, _, c in arcs_u):
            return None
        if room == 1:
            for i in range(len(arcs_u)):
                for j in range(i + 1, len(arcs_u)):
                    (a, la, _), (b, lb, _) = arcs_u[i], arcs_u[j]
                    d = z3.If(a >= b, a - b, a - b + ii)                       # (a - b) mod ii
                    S.add(d >= lb, d <= ii - la)
        else:
            for x, _, _ in arcs_u:
                S.add(z3.Sum([z3.If(covers(s_, l_, x), c_, 0) for s_, l_, c_ in arcs_u]) <= room)

    mem = p.memories                                                          # lifetimes
    uses: dict[int, list] = {}
    for s, d, _delay, dist in p.edges:
        uses.setdefault(s, []).append(t[d] + ii * dist + p.hold[d])
    life: dict[int, tuple[Any, Any]] = {}
    for v in range(n):
        if v not in uses or not any(sizes[v] for sizes in mem.values()):
            continue
        ends = uses[v] + [t[v] + 1]
        end = z3.Int(f"end_{p.nodes[v]}")
        S.add(*[end >= e for e in ends])
        S.add(z3.Or([end == e for e in ends]))
        qv, mv = z3.Int(f"turns_{p.nodes[v]}"), z3.Int(f"arc_{p.nodes[v]}")
        S.add(qv >= 0, mv >= 0, mv < ii, end - t[v] == ii * qv + mv)
        life[v] = (qv, mv)

    def live_at(v: int, x: Any) -> Any:
        qv, mv = life[v]
        return qv + z3.If(covers(r[v], mv, x), 1, 0)

    for name, cap in p.memory_capacity:                                       # MEMORY CAPACITY
        sizes = mem.get(name, (0,) * n)
        members = [v for v in life if sizes[v]]
        if members and cap <= 0:
            return None
        for u in members:
            S.add(z3.Sum([sizes[v] * live_at(v, r[u]) for v in members]) <= cap)
    regs = mem.get("registers", (0,) * n)                                     # REGISTER LIMIT
    if p.reg_limit:
        members = [v for v in life if regs[v]]
        for u in members:
            terms = []
            for v in members:
                sg = True if v == u else same(u, v)
                if sg is False:
                    continue
                term = regs[v] * live_at(v, r[u])
                terms.append(term if sg is True else z3.If(sg, term, 0))
            S.add(z3.Sum(terms) <= p.reg_limit)

    blocked: dict[int, Any] = {}                                              # CONCURRENCY
    cross: dict[int, list] = {}
    for e, (s, d, _delay, _dist) in enumerate(p.edges):
        if s == d:
            continue
        sg = same(s, d)
        if p.blocking[e] or sg is False:
            blocked[d] = True
        elif sg is not True:
            cross.setdefault(d, []).append(z3.Not(sg))
    for v, lits in cross.items():
        blocked.setdefault(v, z3.Or(lits))
    for v, cond in blocked.items():
        for o in range(n):
            if o == v or p.busy[o] <= 0:
                continue
            sg = same(v, o)
            if sg is False:
                continue
            guard = z3.And(sg, cond) if cond is not True else sg
            if p.busy[o] >= ii:
                S.add(z3.Not(guard) if guard is not True else False)
                continue
            since = z3.If(r[v] >= r[o], r[v] - r[o], r[v] - r[o] + ii)
            S.add(z3.Implies(guard, since >= p.busy[o]) if guard is not True else since >= p.busy[o])
    return t, w, L
