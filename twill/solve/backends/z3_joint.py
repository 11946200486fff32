"""z3 backend for the joint problem, in QF_LIA (``twill.solve.joint_problem`` states the semantics).

Encoding. As in the CP-SAT backend, op v has an integer start t_v = I*k_v + r_v (CONSISTENCY makes
this equivalent to Figure 4's booleans op[v, i, t]) and an integer warp group w_v (WARP UNIQUENESS;
VARIABLE LATENCY fixes its range). Folded modulo I, a reservation or a lifetime is an arc of the slot
circle plus whole turns; ``covers(arc, x)`` is the linear test ``(x - start) mod I < length``
written with one ``If``. A sum of arcs is largest at the start of one of them, so every capacity
family (units, memories, registers per group) is checked at the arc starts only: O(arcs^2) linear
terms, independent of I. Capacity 1 uses pairwise separation instead. L is fixed per check and
raised one by one (Algorithm 1's inner loop), on one incremental solver (push/pop).

Each family is one function ``add_<family>(S, q, jv)`` (``FAMILIES``, the same names as in
``cpsat_joint``), asserting its constraints on the solver ``S`` for the step ``q`` over the
shared variables ``jv``; False when a constant part of it is already infeasible.

Which of several equally good models z3 returns depends on the ids of its terms, and z3 reuses
the id of a term Python has freed: the order in which terms are created and freed (a family's
temporaries go when it returns) can change the schedule of a given (I, L) that comes out, never
the status or L.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from twill.solve.budget import WALL_CAP, WORK_LIMIT, Z3_RLIMIT_PER_SECOND
from twill.solve.joint_problem import JointAtIL, JointProblem, arcs
from twill.solve.problem import Solution, SolveOptions


class Z3Joint:
    name = "z3"

    def solve(self, q: JointAtIL, options: SolveOptions) -> Solution:
        """The smallest L in [q.lo, q.hi] with a joint schedule at q.ii, trying each L in turn;
        ``stats["lengths"]`` lists each L tried with sat | unsat | unknown and its seconds. The checks share
        ``options.time_limit`` deterministic seconds of z3's resource counter (``rlimit``,
        ``budget.Z3_RLIMIT_PER_SECOND`` a second), the wall clock only as the safety cap."""
        import z3

        t0 = time.perf_counter()
        solver = z3.SolverFor("QF_LIA")
        solver.set("random_seed", options.seed)
        built = _build(z3, solver, q)
        stats: dict[str, Any] = {"build_seconds": time.perf_counter() - t0, "lengths": [], "work": 0.0}
        if built is None:
            stats.update(seconds=time.perf_counter() - t0, solver_status="unsat (constant load)")
            return Solution("infeasible", {}, stats)
        jv = built
        allowed = int(options.time_limit * Z3_RLIMIT_PER_SECOND)
        used, unknown = 0, False
        for length in range(q.lo, q.hi + 1):
            wall = options.wall_seconds - (time.perf_counter() - t0)
            if used >= allowed or wall <= 0:
                stats["stopped_by"] = WORK_LIMIT if used >= allowed else WALL_CAP
                unknown = True
                break
            solver.set("rlimit", allowed - used)        # z3 counts it from where the check starts
            solver.set("timeout", max(1, int(wall * 1000)))
            solver.push()
            solver.add(jv.L == length)
            t1, before = time.perf_counter(), _rlimit_count(solver)
            res = solver.check()
            used += _rlimit_count(solver) - before
            stats["work"] = used / Z3_RLIMIT_PER_SECOND
            stats["lengths"].append({"length": length, "result": str(res), "seconds": round(time.perf_counter() - t1, 4)})
            if res == z3.sat:
                stats.update(seconds=time.perf_counter() - t0, solver_status="sat", bound=q.lo if unknown else length)
                return Solution("feasible" if unknown else "optimal", _model_values(solver.model(), jv, length), stats)
            solver.pop()
            if res != z3.unsat:
                unknown = True
                stats["stopped_by"] = WORK_LIMIT if used >= allowed else WALL_CAP
        stats.update(seconds=time.perf_counter() - t0, solver_status="unknown" if unknown else "unsat")
        return Solution("timeout" if unknown else "infeasible", {}, stats)


def _rlimit_count(solver: Any) -> int:
    """z3's resource counter now (it runs on across checks and solvers of the process)."""
    st = solver.statistics()
    return int(st.get_key_value("rlimit count")) if "rlimit count" in st.keys() else 0


def _model_values(mdl: Any, jv: "JointVars", length: int) -> dict[str, Any]:
    p = jv.p
    return {"start": {p.nodes[v]: mdl.eval(jv.t[v], model_completion=True).as_long() for v in range(p.n)},
            "warp": {p.nodes[v]: (jv.w[v] if isinstance(jv.w[v], int) else
                                  mdl.eval(jv.w[v], model_completion=True).as_long())
                     for v in range(p.n)},
            "length": length}


@dataclass
class JointVars:
    """The variables the families share, each list indexed by node and filled by the family that
    owns it: ``t``, ``k`` (UNIQUENESS), ``w`` (WARP UNIQUENESS), ``life`` (lifetimes); ``z3`` is
    the solver's module (imported by ``Z3Joint.solve`` alone)."""

    z3: Any
    p: JointProblem
    ii: int
    L: Any
    r: list                                       # slot r_v in [0, I)
    t: list = field(default_factory=list)         # start t_v = I*k_v + r_v
    k: list = field(default_factory=list)         # stage k_v
    w: list = field(default_factory=list)         # v's group: an int when fixed, else an Int
    life: dict[int, tuple[Any, Any]] = field(default_factory=dict)   # v -> (q_v, m_v): span = I*q_v + m_v

    @classmethod
    def new(cls, z3: Any, S: Any, q: JointAtIL) -> "JointVars":
        p = q.problem
        L = z3.Int("L")
        S.add(L >= q.lo, L <= q.hi)
        return cls(z3, p, q.ii, L, [z3.Int(f"r_{p.nodes[v]}") for v in range(p.n)])

    def same(self, a: int, b: int) -> Any:
        """True/False when decided by the groups allowed, else the z3 test w_a == w_b."""
        w = self.w
        if isinstance(w[a], int) and isinstance(w[b], int):
            return w[a] == w[b]
        if not set(self.p.groups_of(a)) & set(self.p.groups_of(b)):
            return False
        return w[a] == w[b]

    def covers(self, start: Any, length: Any, x: Any) -> Any:
        """(x - start) mod ii < length, for start, x in [0, ii)."""
        return self.z3.If(x >= start, x - start < length, x - start + self.ii < length)

    def live_at(self, v: int, x: Any) -> Any:
        """Instances of value v live at slot x: its full turns, plus one where its arc covers x."""
        qv, mv = self.life[v]
        return qv + self.z3.If(self.covers(self.r[v], mv, x), 1, 0)


def _build(z3: Any, S: Any, q: JointAtIL) -> JointVars | None:
    """Every family on ``S`` in the order the model has always had them (the same order, the
    same search); None when a constant part is infeasible."""
    jv = JointVars.new(z3, S, q)
    add_uniqueness_completion(S, q, jv)
    add_stage_order(S, q, jv)
    add_warp_uniqueness(S, q, jv)
    add_symmetry_breaking(S, q, jv)
    for e in range(len(q.problem.edges)):      # edge by edge: its dependence, then its spill
        add_dependence(S, q, jv, (e,))
        if not add_cross_warp_spills(S, q, jv, (e,)):
            return None
    if not add_capacity(S, q, jv):
        return None
    add_lifetimes(S, q, jv)
    if not (add_memory_capacity(S, q, jv) and add_register_limit(S, q, jv) and add_concurrency(S, q, jv)):
        return None
    if not add_group_sequence(S, q, jv):
        return None
    add_retirement(S, q, jv)
    add_lookahead(S, q, jv)
    if not add_together(S, q, jv):
        return None
    return jv


def add_uniqueness_completion(S: Any, q: JointAtIL, jv: JointVars) -> bool:
    """UNIQUENESS, CONSISTENCY: one start t_v = I*k_v + r_v; COMPLETION: t_v + cycles_v <= L."""
    p, ii, r = q.problem, q.ii, jv.r
    for v in range(p.n):
        k = jv.z3.Int(f"k_{p.nodes[v]}")
        S.add(r[v] >= 0, r[v] < ii, k >= 0)
        tv = ii * k + r[v]
        S.add(tv + p.cycles[v] <= jv.L)
        jv.t.append(tv)
        jv.k.append(k)
    return True


def add_stage_order(S: Any, q: JointAtIL, jv: JointVars) -> bool:
    """The compiler's STAGE ORDER: stage(a) <= stage(b)."""
    for a, b in q.problem.stage_order:
        S.add(jv.k[a] <= jv.k[b])
    return True


def add_warp_uniqueness(S: Any, q: JointAtIL, jv: JointVars) -> bool:
    """WARP UNIQUENESS, VARIABLE LATENCY: one of the groups ``groups_of(v)`` allows; w[v] an int
    when there is one."""
    p = q.problem
    for v in range(p.n):
        groups = p.groups_of(v)
        if len(groups) == 1:
            jv.w.append(groups[0])
            continue
        wv = jv.z3.Int(f"w_{p.nodes[v]}")
        S.add(jv.z3.Or([wv == grp for grp in groups]))
        jv.w.append(wv)
    return True


def add_symmetry_breaking(S: Any, q: JointAtIL, jv: JointVars) -> bool:
    """Compute groups are interchangeable: op j may open group g only if groups < g are in use."""
    p, w = q.problem, jv.w
    seen_max: Any = None
    for v in range(p.n):
        if isinstance(w[v], int) or p.single_warp[v]:
            continue
        if seen_max is None:
            S.add(w[v] == 0)
            seen_max = w[v]
        else:
            S.add(w[v] <= seen_max + 1)
            seen_max = jv.z3.If(w[v] > seen_max, w[v], seen_max)
    return True


def add_dependence(S: Any, q: JointAtIL, jv: JointVars, edges: tuple[int, ...] | None = None) -> bool:
    """DEPENDENCE: t_dst + I*distance >= t_src + delay, for the edges numbered ``edges`` (all by default)."""
    p, ii, t = q.problem, q.ii, jv.t
    for e in range(len(p.edges)) if edges is None else edges:
        s, d, delay, dist = p.edges[e]
        S.add(t[d] + ii * dist >= t[s] + delay)
    return True


def add_cross_warp_spills(S: Any, q: JointAtIL, jv: JointVars, edges: tuple[int, ...] | None = None) -> bool:
    """CROSS-WARP SPILLS: an edge between different groups also waits the source's spill; and
    ``no_cross_warp`` keeps an edge between compute groups on one group."""
    p, ii, t, z3 = q.problem, q.ii, jv.t, jv.z3
    for e in range(len(p.edges)) if edges is None else edges:
        s, d, delay, dist = p.edges[e]
        if s == d:
            continue
        sg = jv.same(s, d)
        if not p.cross_warp_allowed(s, d):
            if sg is False:
                return False
            S.add(sg)
            continue
        if p.spill[s] and sg is not True:
            S.add(z3.Implies(z3.Not(sg), t[d] + ii * dist >= t[s] + delay + p.spill[s]))
    return True


def add_capacity(S: Any, q: JointAtIL, jv: JointVars) -> bool:
    """CAPACITY, folded modulo I: per unit, the arcs' usage at every arc start (capacity 1:
    pairwise separation) within what the full turns leave."""
    p, ii, z3 = q.problem, q.ii, jv.z3
    for unit, cap in p.capacity:
        full, arcs_u = 0, []
        for v in range(p.n):
            for res in p.rrt[v]:
                if res.unit != unit or not res.count or not res.length:
                    continue
                turns, rest = arcs(res.length, ii)
                full += turns * res.count
                if rest:
                    off = res.offset % ii
                    start = jv.r[v] if off == 0 else z3.If(jv.r[v] + off >= ii, jv.r[v] + off - ii, jv.r[v] + off)
                    arcs_u.append((start, rest, res.count))
        room = cap - full
        if room < 0 or any(c > room for _, _, c in arcs_u):
            return False
        if room == 1:
            for i in range(len(arcs_u)):
                for j in range(i + 1, len(arcs_u)):
                    (a, la, _), (b, lb, _) = arcs_u[i], arcs_u[j]
                    d = z3.If(a >= b, a - b, a - b + ii)                       # (a - b) mod ii
                    S.add(d >= lb, d <= ii - la)
        else:
            for x, _, _ in arcs_u:
                S.add(z3.Sum([z3.If(jv.covers(s_, l_, x), c_, 0) for s_, l_, c_ in arcs_u]) <= room)
    return True


def add_lifetimes(S: Any, q: JointAtIL, jv: JointVars) -> bool:
    """Figure 5's live ranges: span_v = end_v - t_v = I*q_v + m_v for every used value with a
    footprint, end_v the latest use (plus its hold), at least t_v + 1."""
    p, ii, t, z3 = q.problem, q.ii, jv.t, jv.z3
    mem = p.memories
    uses: dict[int, list] = {}
    for s, d, _delay, dist in p.edges:
        uses.setdefault(s, []).append(t[d] + ii * dist + p.hold[d])
    for v in range(p.n):
        if v not in uses or not any(sizes[v] for sizes in mem.values()):
            continue
        ends = uses[v] + [t[v] + 1]
        end = z3.Int(f"end_{p.nodes[v]}")
        S.add(*[end >= e for e in ends])
        S.add(z3.Or([end == e for e in ends]))
        qv, mv = z3.Int(f"turns_{p.nodes[v]}"), z3.Int(f"arc_{p.nodes[v]}")
        S.add(qv >= 0, mv >= 0, mv < ii, end - t[v] == ii * qv + mv)
        jv.life[v] = (qv, mv)
    return True


def add_memory_capacity(S: Any, q: JointAtIL, jv: JointVars) -> bool:
    """MEMORY CAPACITY per memory (the whole CTA), at the start of every live arc."""
    p, r = q.problem, jv.r
    for name, cap in p.memory_capacity:
        sizes = p.memories.get(name, (0,) * p.n)
        members = [v for v in jv.life if sizes[v]]
        if members and cap <= 0:
            return False
        for u in members:
            S.add(jv.z3.Sum([sizes[v] * jv.live_at(v, r[u]) for v in members]) <= cap)
    return True


def add_register_limit(S: Any, q: JointAtIL, jv: JointVars) -> bool:
    """REGISTER LIMIT per warp group: the values each group produced, at the start of every live arc."""
    p, r, z3 = q.problem, jv.r, jv.z3
    regs = p.memories.get("registers", (0,) * p.n)
    if p.reg_limit:
        members = [v for v in jv.life if regs[v]]
        for u in members:
            terms = []
            for v in members:
                sg = True if v == u else jv.same(u, v)
                if sg is False:
                    continue
                term = regs[v] * jv.live_at(v, r[u])
                terms.append(term if sg is True else z3.If(sg, term, 0))
            S.add(z3.Sum(terms) <= p.reg_limit)
    return True


def add_concurrency(S: Any, q: JointAtIL, jv: JointVars) -> bool:
    """CONCURRENCY: when an op that waits (a blocking edge, or a transfer from another group)
    issues, no other op of its group is executing: (t_v - t_o) mod I >= busy_o."""
    p, ii, r, z3 = q.problem, q.ii, jv.r, jv.z3
    blocked: dict[int, Any] = {}
    cross: dict[int, list] = {}
    for e, (s, d, _delay, _dist) in enumerate(p.edges):
        if s == d:
            continue
        sg = jv.same(s, d)
        if p.blocking[e] or sg is False:
            blocked[d] = True
        elif sg is not True:
            cross.setdefault(d, []).append(z3.Not(sg))
    for v, lits in cross.items():
        blocked.setdefault(v, z3.Or(lits))
    for v, cond in blocked.items():
        for o in range(p.n):
            if o == v or p.busy[o] <= 0:
                continue
            sg = jv.same(v, o)
            if sg is False:
                continue
            guard = z3.And(sg, cond) if cond is not True else sg
            if p.busy[o] >= ii:
                S.add(z3.Not(guard) if guard is not True else False)
                continue
            since = z3.If(r[v] >= r[o], r[v] - r[o], r[v] - r[o] + ii)
            S.add(z3.Implies(guard, since >= p.busy[o]) if guard is not True else since >= p.busy[o])
    return True


def add_group_sequence(S: Any, q: JointAtIL, jv: JointVars) -> bool:
    """GROUP SEQUENCE: two ops on one group have disjoint busy arcs: (t_v - t_o) mod I >= busy_o or
    (t_o - t_v) mod I >= busy_v (``sequential`` problems)."""
    p, ii, r, z3 = q.problem, q.ii, jv.r, jv.z3
    if not p.sequential:
        return True
    busy = [v for v in range(p.n) if p.busy[v] > 0]
    if any(p.busy[v] > ii for v in busy):       # an op busier than I fits on no group
        return False
    for i, v in enumerate(busy):
        for o in busy[i + 1:]:
            sg = jv.same(v, o)
            if sg is False:
                continue
            since_o = z3.If(r[v] >= r[o], r[v] - r[o], r[v] - r[o] + ii)
            since_v = z3.If(r[o] >= r[v], r[o] - r[v], r[o] - r[v] + ii)
            apart = z3.And(since_o >= p.busy[o], since_v >= p.busy[v])
            S.add(apart if sg is True else z3.Implies(sg, apart))
    return True


def add_retirement(S: Any, q: JointAtIL, jv: JointVars) -> bool:
    """RETIREMENT: a reader of in-order dot b waits, on b's group, for the latest instance of every
    in-order dot a issued at or before b: g = (t_b - t_a) mod I, t_d + I*k >= t_b - g + cycles_a."""
    p, ii, r, t, z3 = q.problem, q.ii, jv.r, jv.t, jv.z3
    for a, b, readers in p.retirement_pairs():
        sg = jv.same(a, b)
        if sg is False:
            continue
        g = z3.If(r[b] >= r[a], r[b] - r[a], r[b] - r[a] + ii)
        for d, dist in readers:
            cons = t[d] + ii * dist >= t[b] - g + p.cycles[a]
            S.add(cons if sg is True else z3.Implies(sg, cons))
    return True


def add_lookahead(S: Any, q: JointAtIL, jv: JointVars) -> bool:
    """LOOKAHEAD: for each (a, b, readers) on one group, t_a + I <= t_b < t_r + I for every reader r of a."""
    p, ii, t = q.problem, q.ii, jv.t
    for a, b, readers in p.lookahead:
        sg = jv.same(a, b)
        if sg is False:
            continue
        terms = [t[b] >= t[a] + ii] + [t[b] + 1 <= t[r] + ii for r in readers]
        S.add(jv.z3.And(terms) if sg is True else jv.z3.Implies(sg, jv.z3.And(terms)))
    return True


def add_together(S: Any, q: JointAtIL, jv: JointVars) -> bool:
    """TOGETHER: each pair the code after the loop reads together on one compute group (none: no constraint, the
    model as it has always been)."""
    for a, b in q.problem.together:
        sg = jv.same(a, b)
        if sg is False:
            return False
        if sg is not True:
            S.add(sg)
    return True


FAMILIES = (add_uniqueness_completion, add_stage_order, add_warp_uniqueness, add_symmetry_breaking, add_dependence,
            add_cross_warp_spills, add_capacity, add_lifetimes, add_memory_capacity, add_register_limit,
            add_concurrency, add_group_sequence, add_retirement, add_lookahead, add_together)
