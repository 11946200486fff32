"""OR-Tools CP-SAT backend for the joint problem (``twill.solve.joint_problem`` states the semantics).

Encoding. Figure 4-6 use one boolean per (op, copy, cycle); here each op has an integer start
t_v = I*k_v + r_v (slot r_v in [0, I)), which CONSISTENCY makes equivalent, and every family folded
modulo I becomes a constraint on circular arcs of the slot circle [0, I):
- CAPACITY: a reservation of length l at offset o is l // I full turns (a constant load) plus an arc
  of l % I slots from (r_v + o) mod I; each arc is two intervals, at s and s + I, so that a
  cumulative (no-overlap at capacity 1) over [0, 3I) sees every slot of the circle once in [I, 2I).
- MEMORY CAPACITY / REGISTER LIMIT: value v is live for span_v = end_v - t_v units, i.e. q_v full
  turns plus an arc of m_v slots from r_v (span_v = I*q_v + m_v); same two-interval cumulative,
  with a fixed interval carrying the full turns. Per warp group the intervals are optional,
  present when opw[v, w].
- WARP UNIQUENESS / VARIABLE LATENCY: one boolean per allowed group (VL ops have only W_vl).
- CROSS-WARP SPILLS: the extra delay is enforced when the two ends' groups differ.
- CONCURRENCY: for a blocking (or cross-warp) consumer v and o on the same group,
  d = r_v - r_o + I*b in [0, I) is (t_v - t_o) mod I, and d >= busy_o.
- GROUP SEQUENCE: per group, the ops' busy arcs as optional intervals (present when on the group),
  two per op as for CAPACITY, under one no-overlap.
- RETIREMENT: for in-order dots a, b that may share a group, g = r_b - r_a + I*c in [0, I) is
  (t_b - t_a) mod I, and each reader d of b (distance k) has t_d + I*k >= t_b - g + cycles_a when they do.
Compute groups are interchangeable: group numbers first appear in program order (symmetry breaking).

Each family is one function ``add_<family>(m, q, jv)`` (``FAMILIES``, the same names as in
``z3_joint``), posting its constraints on the model ``m`` for the step ``q`` over the shared
variables ``jv``; False when a constant part of it is already infeasible.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from twill.errors import SolverError
from twill.solve.backends.cpsat_base import add_folded_capacity, cpsat_solver, limit_solver, work_stats
from twill.solve.budget import wall_cap
from twill.solve.joint_problem import JointAtIL, JointProblem
from twill.solve.problem import Solution, SolveOptions


class CpSatJoint:
    name = "cpsat"

    def solve(self, q: JointAtIL, options: SolveOptions) -> Solution:
        """The smallest L in [q.lo, q.hi] with a joint schedule at q.ii; statuses optimal |
        feasible (time limit, bound in stats) | infeasible (proved) | timeout (nothing found)."""
        from ortools.sat.python import cp_model

        t0 = time.perf_counter()
        m = cp_model.CpModel()
        built = _build(m, q)
        stats: dict[str, Any] = {"build_seconds": time.perf_counter() - t0}
        if built is None:        # a constant part already exceeds a capacity
            stats.update(seconds=time.perf_counter() - t0, work=0.0)
            stats["solver_status"] = "INFEASIBLE (constant load)"
            return Solution("infeasible", {}, stats)
        jv, (off_issue, prefer) = built
        for v, start in enumerate(q.hint):          # the modulo seed M: where the search starts
            m.AddHint(jv.t[v], start)
        # Lexicographic: L first; among equally short schedules, single-thread-issued ops (Blackwell
        # MMAs) on the issue warp rather than on a compute group, whose issue slots they would take.
        weight = q.problem.n + 1
        m.Minimize(jv.L * weight + off_issue if off_issue is not None else jv.L)
        solver = cpsat_solver(options)
        st = solver.Solve(m)
        stats.update(seconds=time.perf_counter() - t0, solver_status=solver.StatusName(st),
                     conflicts=solver.NumConflicts(), **work_stats(solver, st))
        if st == cp_model.MODEL_INVALID:
            raise SolverError("CP-SAT rejected the joint model", where=q.problem.name, found=m.Validate())
        if st == cp_model.INFEASIBLE:
            return Solution("infeasible", {}, stats)
        if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Solution("timeout", {}, stats)
        bound = int(round(solver.BestObjectiveBound()))
        stats["bound"] = bound // weight if off_issue is not None else bound
        status = "optimal" if st == cp_model.OPTIMAL else "feasible"
        best = solver.Value(jv.L)
        values = _values(solver, jv, best)
        if prefer is not None and TIE_BREAK_SECONDS > 0:
            off_best = None if off_issue is None else int(round(solver.ObjectiveValue())) - best * weight
            values = _tie_break(m, solver, jv, values, prefer, off_issue, off_best, options, stats)
            stats["seconds"] = time.perf_counter() - t0
        return Solution(status, values, stats)


TIE_BREAK_SECONDS = 2.5    # the preference pass's own limit, deterministic seconds (or the call's limit if shorter;
                           # at least 0.25): about the 10 wall seconds it had before the limits were deterministic


def _values(solver: Any, jv: "JointVars", length: int) -> dict[str, Any]:
    p = jv.p
    return {"start": {p.nodes[v]: solver.Value(jv.t[v]) for v in range(p.n)},
            "warp": {p.nodes[v]: (jv.w[v] if isinstance(jv.w[v], int) else solver.Value(jv.w[v]))
                     for v in range(p.n)},
            "length": length}


def _tie_break(m: Any, solver: Any, jv: "JointVars", values: dict[str, Any], prefer: Any, off_issue: Any,
               off_best: int | None, options: SolveOptions, stats: dict[str, Any]) -> dict[str, Any]:
    """Second pass, L (and the issue-warp count) fixed at the first pass's values: a preference
    among equally short schedules, not part of the proof (the status is the first pass's; a pass
    that finds nothing better in its time, TIE_BREAK_SECONDS or the call's limit if shorter,
    keeps the first schedule). Lexicographic:

    1. least blocking exposure: the sum, over blocking consumers (and consumers of cross-warp
       transfers), of the busy time of the other ops on their group. A warp issues in order, so a
       blocking wait whose producer runs late stalls everything else its group has in flight (the
       paper's section 3.2, Figure 2); the static model sees no stall when the schedule holds, so
       among schedules it cannot tell apart this keeps waits on the least loaded groups: FA4's
       correction warps, which take the tensor-memory accumulator reads off the softmax warps (the
       paper's Figure 9);
    2. fewest values crossing between compute groups (each goes through shared memory and a
       barrier that the model charges only as a delay; on the H200 a 64x128 tile of the sub-tiled
       FA forward crossing partitions every iteration cost a quarter of the throughput: 392
       TFLOP/s against 517 with each sub-tile on its own group).
    """
    from ortools.sat.python import cp_model

    p, best = jv.p, values["length"]
    m.Add(jv.L == best)
    if off_issue is not None:
        m.Add(off_issue <= off_best)
    m.ClearObjective()
    m.Minimize(prefer)
    m.ClearHints()
    for v in range(p.n):
        m.AddHint(jv.t[v], values["start"][p.nodes[v]])
        if not isinstance(jv.w[v], int):
            m.AddHint(jv.w[v], values["warp"][p.nodes[v]])
    limit = min(TIE_BREAK_SECONDS, max(0.25, options.time_limit))
    limit_solver(solver, limit, min(wall_cap(limit), options.wall_seconds))
    st2 = solver.Solve(m)
    stats["tie_break"] = solver.StatusName(st2)
    # the pass's work is the call's; its stop is not the call's (the first pass's status stands)
    stats["work"] = work_stats(solver, st2, stats.get("work", 0.0))["work"]
    if st2 in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return _values(solver, jv, best)
    return values


@dataclass
class JointVars:
    """The variables the families share, each list indexed by node and filled by the family that
    owns it: ``t``, ``k`` (UNIQUENESS), ``ow``, ``w`` (WARP UNIQUENESS), ``life`` and ``top``
    (lifetimes), ``exposure`` (CONCURRENCY, read by the preference pass)."""

    m: Any
    p: JointProblem
    ii: int
    L: Any
    r: list                                       # slot r_v in [0, I)
    t: list = field(default_factory=list)         # start t_v = I*k_v + r_v
    k: list = field(default_factory=list)         # stage k_v
    ow: list[dict[int, Any]] = field(default_factory=list)   # opw[v][g]: True, or a BoolVar
    w: list = field(default_factory=list)         # v's group: an int when fixed, else an IntVar
    life: dict[int, tuple[Any, Any]] = field(default_factory=dict)   # v -> (q_v, m_v): span = I*q_v + m_v
    top: int = 0                                  # a bound on every value's end
    exposure: list = field(default_factory=list)  # busy time of the other ops on each waiting op's group
    same_cache: dict[tuple[int, int], Any] = field(default_factory=dict)

    @classmethod
    def new(cls, m: Any, q: JointAtIL) -> "JointVars":
        p, ii = q.problem, q.ii
        L = m.NewIntVar(q.lo, q.hi, "L")
        return cls(m, p, ii, L, [m.NewIntVar(0, ii - 1, f"r_{p.nodes[v]}") for v in range(p.n)])

    def same(self, a: int, b: int) -> Any:
        """True/False when decided by the groups allowed, else a BoolVar (opw[a] == opw[b])."""
        p, m, w = self.p, self.m, self.w
        if isinstance(w[a], int) and isinstance(w[b], int):
            return w[a] == w[b]
        if not set(p.groups_of(a)) & set(p.groups_of(b)):
            return False
        key = (min(a, b), max(a, b))
        if key not in self.same_cache:
            s = m.NewBoolVar(f"same_{p.nodes[key[0]]}_{p.nodes[key[1]]}")
            m.Add(w[a] == w[b]).OnlyEnforceIf(s)
            m.Add(w[a] != w[b]).OnlyEnforceIf(s.Not())
            self.same_cache[key] = s
        return self.same_cache[key]


def _build(m: Any, q: JointAtIL) -> tuple[JointVars, tuple[Any, Any]] | None:
    """Every family on ``m`` in the order the model has always had them (CP-SAT's search path
    follows the order of variables and constraints: the same order, the same schedules), then the
    preference terms; None when a constant part is infeasible."""
    jv = JointVars.new(m, q)
    if not add_uniqueness_completion(m, q, jv):
        return None
    add_stage_order(m, q, jv)
    add_warp_uniqueness(m, q, jv)
    add_symmetry_breaking(m, q, jv)
    for e in range(len(q.problem.edges)):      # edge by edge: its dependence, then its spill
        add_dependence(m, q, jv, (e,))
        if not add_cross_warp_spills(m, q, jv, (e,)):
            return None
    if not add_capacity(m, q, jv):
        return None
    add_lifetimes(m, q, jv)
    if not (add_memory_capacity(m, q, jv) and add_register_limit(m, q, jv) and add_concurrency(m, q, jv)):
        return None
    if not add_group_sequence(m, q, jv):
        return None
    add_retirement(m, q, jv)
    add_lookahead(m, q, jv)
    if not add_together(m, q, jv):
        return None
    return jv, _preferences(m, q, jv)


def add_uniqueness_completion(m: Any, q: JointAtIL, jv: JointVars) -> bool:
    """UNIQUENESS, CONSISTENCY: one start t_v = I*k_v + r_v; COMPLETION: t_v + cycles_v <= L."""
    p, ii = q.problem, q.ii
    for v in range(p.n):
        if p.cycles[v] > q.hi:
            return False
        jv.k.append(m.NewIntVar(0, (q.hi - p.cycles[v]) // ii, f"k_{p.nodes[v]}"))
        tv = m.NewIntVar(0, q.hi - p.cycles[v], f"t_{p.nodes[v]}")
        m.Add(tv == ii * jv.k[v] + jv.r[v])
        m.Add(tv + p.cycles[v] <= jv.L)
        jv.t.append(tv)
    return True


def add_stage_order(m: Any, q: JointAtIL, jv: JointVars) -> bool:
    """The compiler's STAGE ORDER: stage(a) <= stage(b)."""
    for a, b in q.problem.stage_order:
        m.Add(jv.k[a] <= jv.k[b])
    return True


def add_warp_uniqueness(m: Any, q: JointAtIL, jv: JointVars) -> bool:
    """WARP UNIQUENESS, VARIABLE LATENCY: exactly one of the groups ``groups_of(v)`` allows; w[v]
    an int when there is one, else a variable over the booleans."""
    p = q.problem
    for v in range(p.n):
        groups = p.groups_of(v)
        if len(groups) == 1:
            jv.ow.append({groups[0]: True})
            jv.w.append(groups[0])
            continue
        bs = {g: m.NewBoolVar(f"opw_{p.nodes[v]}_{g}") for g in groups}
        m.AddExactlyOne(bs.values())
        wv = m.NewIntVar(min(groups), max(groups), f"w_{p.nodes[v]}")
        m.Add(wv == sum(g * b for g, b in bs.items()))
        jv.ow.append(bs)
        jv.w.append(wv)
    return True


def add_symmetry_breaking(m: Any, q: JointAtIL, jv: JointVars) -> bool:
    """Compute groups are interchangeable: op j may open group g only if groups < g are in use."""
    p, w = q.problem, jv.w
    seen_max: Any = None
    for v in range(p.n):
        if p.variable_latency[v] or p.single_warp[v] or isinstance(w[v], int):
            continue
        if seen_max is None:
            m.Add(w[v] == 0)
            seen_max = w[v]
            continue
        m.Add(w[v] <= seen_max + 1)
        nxt = m.NewIntVar(0, p.warp_groups - 1, f"maxw_{p.nodes[v]}")
        m.AddMaxEquality(nxt, [seen_max, w[v]])
        seen_max = nxt
    return True


def add_dependence(m: Any, q: JointAtIL, jv: JointVars, edges: tuple[int, ...] | None = None) -> bool:
    """DEPENDENCE: t_dst + I*distance >= t_src + delay, for the edges numbered ``edges`` (all by default)."""
    p, ii, t = q.problem, q.ii, jv.t
    for e in range(len(p.edges)) if edges is None else edges:
        s, d, delay, dist = p.edges[e]
        m.Add(t[d] + ii * dist >= t[s] + delay)
    return True


def add_cross_warp_spills(m: Any, q: JointAtIL, jv: JointVars, edges: tuple[int, ...] | None = None) -> bool:
    """CROSS-WARP SPILLS: an edge between different groups also waits the source's spill; and
    ``no_cross_warp`` keeps an edge between compute groups on one group."""
    p, ii, t = q.problem, q.ii, jv.t
    for e in range(len(p.edges)) if edges is None else edges:
        s, d, delay, dist = p.edges[e]
        if s == d:
            continue
        sg = jv.same(s, d)
        if not p.cross_warp_allowed(s, d):
            if sg is False:
                return False
            if sg is not True:
                m.Add(sg == 1)
            continue
        if p.spill[s] and sg is not True:
            cons = m.Add(t[d] + ii * dist >= t[s] + delay + p.spill[s])
            if sg is not False:
                cons.OnlyEnforceIf(sg.Not())
    return True


def add_capacity(m: Any, q: JointAtIL, jv: JointVars) -> bool:
    """CAPACITY, folded modulo I (``cpsat_base.add_folded_capacity``)."""
    return add_folded_capacity(m, q.problem, jv.r, q.ii)


def add_lifetimes(m: Any, q: JointAtIL, jv: JointVars) -> bool:
    """Figure 5's live ranges: span_v = end_v - t_v = I*q_v + m_v for every used value with a
    footprint, end_v the latest use (plus its hold), at least t_v + 1."""
    p, ii, t = q.problem, q.ii, jv.t
    mem = p.memories
    has_fp = [any(sizes[v] for sizes in mem.values()) for v in range(p.n)]
    uses: dict[int, list] = {}
    for s, d, _delay, dist in p.edges:
        uses.setdefault(s, []).append(t[d] + ii * dist + p.hold[d])
    max_dist = max([dist for *_, dist in p.edges] + [0])
    jv.top = q.hi + ii * max_dist + max(p.hold + (0,)) + 1
    for v in range(p.n):
        if not has_fp[v] or v not in uses:
            continue
        end = m.NewIntVar(0, jv.top, f"end_{p.nodes[v]}")
        m.AddMaxEquality(end, uses[v] + [t[v] + 1])
        qv = m.NewIntVar(0, jv.top // ii + 1, f"turns_{p.nodes[v]}")
        mv = m.NewIntVar(0, ii - 1, f"arc_{p.nodes[v]}")
        m.Add(end - t[v] == ii * qv + mv)
        jv.life[v] = (qv, mv)
    return True


def add_memory_capacity(m: Any, q: JointAtIL, jv: JointVars) -> bool:
    """MEMORY CAPACITY per memory (the whole CTA)."""
    p = q.problem
    for name, cap in p.memory_capacity:
        sizes = p.memories.get(name, (0,) * p.n)
        members = [(v, sizes[v], True) for v in jv.life if sizes[v]]
        if members and cap <= 0:
            return False
        _live_cumulative(m, jv, f"mem_{name}", members, cap)
    return True


def add_register_limit(m: Any, q: JointAtIL, jv: JointVars) -> bool:
    """REGISTER LIMIT per warp group: the values each group produced."""
    p = q.problem
    regs = p.memories.get("registers", (0,) * p.n)
    if p.reg_limit:
        for g in range(p.total_groups):
            members = [(v, regs[v], jv.ow[v][g]) for v in jv.life if regs[v] and g in jv.ow[v]]
            _live_cumulative(m, jv, f"regs_wg{g}", members, p.reg_limit)
    return True


def _live_cumulative(m: Any, jv: JointVars, tag: str, members: list[tuple[int, int, Any]], cap: int) -> None:
    """members: (v, bytes, presence literal or True); the live bytes at every slot <= cap."""
    if not members:
        return
    p, ii, r = jv.p, jv.ii, jv.r
    intervals, demands, turns = [], [], []
    for v, size, present in members:
        qv, mv = jv.life[v]
        for base in (0, ii):
            name = f"{tag}_{p.nodes[v]}_{base}"
            end = m.NewIntVar(0, 3 * ii, name + "_end")
            if present is True:
                iv = m.NewIntervalVar(r[v] + base, mv, end, name)
            else:
                iv = m.NewOptionalIntervalVar(r[v] + base, mv, end, present, name)
            intervals.append(iv)
            demands.append(size)
        if present is True:
            turns.append(size * qv)
        else:
            z = m.NewIntVar(0, jv.top // ii + 1, f"{tag}_turns_{p.nodes[v]}")
            m.Add(z == qv).OnlyEnforceIf(present)
            m.Add(z == 0).OnlyEnforceIf(present.Not())
            turns.append(size * z)
    full = m.NewIntVar(0, cap, f"{tag}_full")
    m.Add(full == sum(turns))
    intervals.append(m.NewFixedSizeIntervalVar(0, 3 * ii, f"{tag}_turns"))
    demands.append(full)
    m.AddCumulative(intervals, demands, cap)


def _waiting(m: Any, q: JointAtIL, jv: JointVars) -> dict[int, Any]:
    """The ops that wait, each with True or the literal under which it waits: consumers of a
    blocking edge, and of an edge whose ends may take different groups (a cross-warp transfer)."""
    p = q.problem
    blocked_by: dict[int, Any] = {}
    cross_lits: dict[int, list] = {}
    for e, (s, d, _delay, _dist) in enumerate(p.edges):
        if s == d:
            continue
        if p.blocking[e]:
            blocked_by[d] = True
        sg = jv.same(s, d)
        if sg is False:
            blocked_by[d] = True
        elif sg is not True:
            cross_lits.setdefault(d, []).append(sg.Not())
    for v, lits in cross_lits.items():
        if blocked_by.get(v) is True:
            continue
        waits = m.NewBoolVar(f"waits_{p.nodes[v]}")
        for lit in lits:
            m.AddImplication(lit, waits)
        blocked_by[v] = waits
    return blocked_by


def add_concurrency(m: Any, q: JointAtIL, jv: JointVars) -> bool:
    """CONCURRENCY: when an op that waits issues, no other op of its group is executing:
    d = r_v - r_o + I*b in [0, I) is (t_v - t_o) mod I, and d >= busy_o. Records each such pair's
    busy time in ``jv.exposure`` (the preference pass's first term)."""
    p, ii, r = q.problem, q.ii, jv.r
    for v, cond in _waiting(m, q, jv).items():
        for o in range(p.n):
            if o == v or p.busy[o] <= 0:
                continue
            sg = jv.same(v, o)
            if sg is False:
                continue
            guard = [lit for lit in (sg, cond) if lit is not True]
            if p.busy[o] >= ii:
                if not guard:
                    return False
                m.AddBoolOr([lit.Not() for lit in guard])
                continue
            b = m.NewBoolVar(f"wrap_{p.nodes[v]}_{p.nodes[o]}")
            diff = m.NewIntVar(0, ii - 1, f"since_{p.nodes[v]}_{p.nodes[o]}")
            m.Add(diff == r[v] - r[o] + ii * b)
            m.Add(diff >= p.busy[o]).OnlyEnforceIf(guard)
            if not guard:
                jv.exposure.append(p.busy[o])
            else:
                exposed = m.NewBoolVar(f"exposed_{p.nodes[v]}_{p.nodes[o]}")
                m.AddBoolOr([lit.Not() for lit in guard] + [exposed])     # exposed >= AND(guard)
                jv.exposure.append(p.busy[o] * exposed)
    return True


def add_group_sequence(m: Any, q: JointAtIL, jv: JointVars) -> bool:
    """GROUP SEQUENCE: the busy arcs of one group's ops are disjoint modulo I (``sequential`` problems)."""
    p, ii, r = q.problem, q.ii, jv.r
    if not p.sequential:
        return True
    if any(p.busy[v] > ii for v in range(p.n)):     # an op busier than I fits on no group
        return False
    for g in range(p.total_groups):
        members = [v for v in range(p.n) if p.busy[v] > 0 and g in jv.ow[v]]
        intervals = []
        for v in members:
            present = jv.ow[v][g]
            for base in (0, ii):
                name = f"seq{g}_{p.nodes[v]}_{base}"
                if present is True:
                    intervals.append(m.NewFixedSizeIntervalVar(r[v] + base, p.busy[v], name))
                else:
                    intervals.append(m.NewOptionalFixedSizeIntervalVar(r[v] + base, p.busy[v], present, name))
        if len(intervals) > 2:
            m.AddNoOverlap(intervals)
    return True


def add_retirement(m: Any, q: JointAtIL, jv: JointVars) -> bool:
    """RETIREMENT: a reader of in-order dot b waits, on b's group, for the latest instance of every
    in-order dot a issued at or before b: g = (t_b - t_a) mod I, t_d + I*k >= t_b - g + cycles_a."""
    p, ii, r, t = q.problem, q.ii, jv.r, jv.t
    for a, b, readers in p.retirement_pairs():
        sg = jv.same(a, b)
        if sg is False:
            continue
        c = m.NewBoolVar(f"rwrap_{p.nodes[a]}_{p.nodes[b]}")
        g = m.NewIntVar(0, ii - 1, f"gap_{p.nodes[a]}_{p.nodes[b]}")
        m.Add(g == r[b] - r[a] + ii * c)
        for d, dist in readers:
            cons = m.Add(t[d] + ii * dist >= t[b] - g + p.cycles[a])
            if sg is not True:
                cons.OnlyEnforceIf(sg)
    return True


def add_lookahead(m: Any, q: JointAtIL, jv: JointVars) -> bool:
    """LOOKAHEAD: for each (a, b, readers) on one group, t_a + I <= t_b < t_r + I for every reader r of a."""
    p, ii, t = q.problem, q.ii, jv.t
    for a, b, readers in p.lookahead:
        sg = jv.same(a, b)
        if sg is False:
            continue
        for cons in [m.Add(t[b] >= t[a] + ii)] + [m.Add(t[b] + 1 <= t[r] + ii) for r in readers]:
            if sg is not True:
                cons.OnlyEnforceIf(sg)
    return True


def add_together(m: Any, q: JointAtIL, jv: JointVars) -> bool:
    """TOGETHER: each pair the code after the loop reads together on one compute group (none: no constraint, the
    model as it has always been)."""
    for a, b in q.problem.together:
        sg = jv.same(a, b)
        if sg is False:
            return False
        if sg is not True:
            m.Add(sg == 1)
    return True


FAMILIES = (add_uniqueness_completion, add_stage_order, add_warp_uniqueness, add_symmetry_breaking, add_dependence,
            add_cross_warp_spills, add_capacity, add_lifetimes, add_memory_capacity, add_register_limit,
            add_concurrency, add_group_sequence, add_retirement, add_lookahead, add_together)


def _preferences(m: Any, q: JointAtIL, jv: JointVars) -> tuple[Any, Any]:
    """``(off_issue, prefer)``, the objective terms among schedules of equal L (see
    ``CpSatJoint.solve``): the single-thread-issued ops off the issue warp (first pass; None
    without an issue warp), then least blocking exposure and fewest values crossing between
    compute groups (second pass, ``_tie_break``; None when nothing is left to choose)."""
    p = q.problem
    off = 0
    if p.issue_group is not None:
        off = sum(1 - jv.ow[v][p.issue_group] for v in range(p.n)
                  if p.single_warp[v] and p.issue_group in jv.ow[v] and not isinstance(jv.ow[v][p.issue_group], bool))
    crossing = []
    for s_, d_, _delay, _dist in p.edges:
        if s_ == d_ or p.variable_latency[s_] or p.variable_latency[d_]:
            continue
        sg = jv.same(s_, d_)
        if sg is True or sg is False:
            continue
        x = m.NewBoolVar(f"cross_{p.nodes[s_]}_{p.nodes[d_]}")
        m.AddImplication(sg.Not(), x)
        crossing.append(x)
    prefer = None
    if crossing or any(not isinstance(x, int) for x in jv.exposure):
        prefer = sum(jv.exposure) * (len(crossing) + 1) + sum(crossing)
    return (off if p.issue_group is not None else None), prefer
