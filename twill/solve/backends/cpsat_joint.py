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
Compute groups are interchangeable: group numbers first appear in program order (symmetry breaking).
"""
from __future__ import annotations

import time
from typing import Any

from twill.errors import SolverError
from twill.solve.backends.cpsat_base import add_folded_capacity, cpsat_solver
from twill.solve.joint_problem import JointAtIL
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
            stats["seconds"] = time.perf_counter() - t0
            stats["solver_status"] = "INFEASIBLE (constant load)"
            return Solution("infeasible", {}, stats)
        t, w, L, (off_issue, prefer) = built
        for v, start in enumerate(q.hint):          # the modulo seed M: where the search starts
            m.AddHint(t[v], start)
        # Lexicographic: L first; among equally short schedules, single-thread-issued ops (Blackwell
        # MMAs) on the issue warp rather than on a compute group, whose issue slots they would take.
        weight = q.problem.n + 1
        m.Minimize(L * weight + off_issue if off_issue is not None else L)
        solver = cpsat_solver(options)
        st = solver.Solve(m)
        stats.update(seconds=time.perf_counter() - t0, solver_status=solver.StatusName(st),
                     conflicts=solver.NumConflicts())
        if st == cp_model.MODEL_INVALID:
            raise SolverError("CP-SAT rejected the joint model", where=q.problem.name, found=m.Validate())
        if st == cp_model.INFEASIBLE:
            return Solution("infeasible", {}, stats)
        if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Solution("timeout", {}, stats)
        p = q.problem
        bound = int(round(solver.BestObjectiveBound()))
        stats["bound"] = bound // weight if off_issue is not None else bound
        status = "optimal" if st == cp_model.OPTIMAL else "feasible"
        best = solver.Value(L)
        values = {"start": {p.nodes[v]: solver.Value(t[v]) for v in range(p.n)},
                  "warp": {p.nodes[v]: (w[v] if isinstance(w[v], int) else solver.Value(w[v])) for v in range(p.n)},
                  "length": best}
        if prefer is not None:
            # Second pass, L (and the issue-warp count) fixed at the first pass's values: a
            # preference among equally short schedules, not part of the proof (the status is the
            # first pass's; a pass that finds nothing better in its time, TIE_BREAK_SECONDS or the
            # call's limit if shorter, keeps the first schedule). Lexicographic:
            # 1. least blocking exposure: the sum, over blocking consumers (and consumers of
            #    cross-warp transfers), of the busy time of the other ops on their group. A warp
            #    issues in order, so a blocking wait whose producer runs late stalls everything else
            #    its group has in flight (the paper's section 3.2, Figure 2); the static model sees
            #    no stall when the schedule holds, so among schedules it cannot tell apart this
            #    keeps waits on the least loaded groups: FA4's correction warps, which take the
            #    tensor-memory accumulator reads off the softmax warps (the paper's Figure 9);
            # 2. fewest values crossing between compute groups (each goes through shared memory
            #    and a barrier that the model charges only as a delay; on the H200 a 64x128 tile
            #    of the sub-tiled FA forward crossing partitions every iteration cost a quarter of
            #    the throughput: 392 TFLOP/s against 517 with each sub-tile on its own group).
            if TIE_BREAK_SECONDS > 0:
                m.Add(L == best)
                if off_issue is not None:
                    m.Add(off_issue <= int(round(solver.ObjectiveValue())) - best * weight)
                m.ClearObjective()
                m.Minimize(prefer)
                m.ClearHints()
                for v in range(p.n):
                    m.AddHint(t[v], values["start"][p.nodes[v]])
                    if not isinstance(w[v], int):
                        m.AddHint(w[v], values["warp"][p.nodes[v]])
                solver.parameters.max_time_in_seconds = min(TIE_BREAK_SECONDS, max(1.0, options.time_limit))
                st2 = solver.Solve(m)
                stats["tie_break"] = solver.StatusName(st2)
                if st2 in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                    values = {"start": {p.nodes[v]: solver.Value(t[v]) for v in range(p.n)},
                              "warp": {p.nodes[v]: (w[v] if isinstance(w[v], int) else solver.Value(w[v]))
                                       for v in range(p.n)},
                              "length": best}
                stats["seconds"] = time.perf_counter() - t0
        return Solution(status, values, stats)


TIE_BREAK_SECONDS = 10.0   # the preference pass's own limit (or the call's limit if shorter)


def _build(m: Any, q: JointAtIL) -> tuple[list, list, Any] | None:
    p, ii = q.problem, q.ii
    n = p.n
    horizon = 3 * ii
    L = m.NewIntVar(q.lo, q.hi, "L")
    r = [m.NewIntVar(0, ii - 1, f"r_{p.nodes[v]}") for v in range(n)]
    t, k = [], []
    for v in range(n):
        if p.cycles[v] > q.hi:
            return None
        k.append(m.NewIntVar(0, (q.hi - p.cycles[v]) // ii, f"k_{p.nodes[v]}"))
        tv = m.NewIntVar(0, q.hi - p.cycles[v], f"t_{p.nodes[v]}")
        m.Add(tv == ii * k[v] + r[v])                                               # UNIQUENESS, CONSISTENCY
        m.Add(tv + p.cycles[v] <= L)                                                # COMPLETION
        t.append(tv)
    for a, b in p.stage_order:
        m.Add(k[a] <= k[b])                                                         # STAGE ORDER (compiler)

    # WARP UNIQUENESS, VARIABLE LATENCY: w[v] is an int when fixed, else a variable over booleans.
    ow: list[dict[int, Any]] = []
    w: list[Any] = []
    for v in range(n):
        groups = p.groups_of(v)
        if len(groups) == 1:
            ow.append({groups[0]: True})
            w.append(groups[0])
            continue
        bs = {g: m.NewBoolVar(f"opw_{p.nodes[v]}_{g}") for g in groups}
        m.AddExactlyOne(bs.values())
        wv = m.NewIntVar(min(groups), max(groups), f"w_{p.nodes[v]}")
        m.Add(wv == sum(g * b for g, b in bs.items()))
        ow.append(bs)
        w.append(wv)
    _break_symmetry(m, p, w)

    same_cache: dict[tuple[int, int], Any] = {}

    def same(a: int, b: int) -> Any:
        """True/False when decided by the groups allowed, else a BoolVar (opw[a] == opw[b])."""
        if isinstance(w[a], int) and isinstance(w[b], int):
            return w[a] == w[b]
        if not set(p.groups_of(a)) & set(p.groups_of(b)):
            return False
        key = (min(a, b), max(a, b))
        if key not in same_cache:
            s = m.NewBoolVar(f"same_{p.nodes[key[0]]}_{p.nodes[key[1]]}")
            m.Add(w[a] == w[b]).OnlyEnforceIf(s)
            m.Add(w[a] != w[b]).OnlyEnforceIf(s.Not())
            same_cache[key] = s
        return same_cache[key]

    # DEPENDENCE, CROSS-WARP SPILLS (and no_cross_warp).
    for s, d, delay, dist in p.edges:
        m.Add(t[d] + ii * dist >= t[s] + delay)
        if s == d:
            continue
        sg = same(s, d)
        if not p.cross_warp_allowed(s, d):
            if sg is False:
                return None
            if sg is not True:
                m.Add(sg == 1)
            continue
        if p.spill[s] and sg is not True:
            cons = m.Add(t[d] + ii * dist >= t[s] + delay + p.spill[s])
            if sg is not False:
                cons.OnlyEnforceIf(sg.Not())

    # CAPACITY, folded modulo I.
    if not add_folded_capacity(m, p, r, ii):
        return None

    # Lifetimes: span_v = end_v - t_v = I*q_v + m_v for every used value with a footprint.
    mem = p.memories
    has_fp = [any(sizes[v] for sizes in mem.values()) for v in range(n)]
    uses: dict[int, list] = {}
    for s, d, _delay, dist in p.edges:
        uses.setdefault(s, []).append(t[d] + ii * dist + p.hold[d])
    life: dict[int, tuple[Any, Any]] = {}
    max_dist = max([dist for *_, dist in p.edges] + [0])
    top = q.hi + ii * max_dist + max(p.hold + (0,)) + 1
    for v in range(n):
        if not has_fp[v] or v not in uses:
            continue
        end = m.NewIntVar(0, top, f"end_{p.nodes[v]}")
        m.AddMaxEquality(end, uses[v] + [t[v] + 1])
        qv = m.NewIntVar(0, top // ii + 1, f"turns_{p.nodes[v]}")
        mv = m.NewIntVar(0, ii - 1, f"arc_{p.nodes[v]}")
        m.Add(end - t[v] == ii * qv + mv)
        life[v] = (qv, mv)

    def live_cumulative(tag: str, members: list[tuple[int, int, Any]], cap: int) -> None:
        """members: (v, bytes, presence literal or True); the live bytes at every slot <= cap."""
        if not members:
            return
        intervals, demands, turns = [], [], []
        for v, size, present in members:
            qv, mv = life[v]
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
                z = m.NewIntVar(0, top // ii + 1, f"{tag}_turns_{p.nodes[v]}")
                m.Add(z == qv).OnlyEnforceIf(present)
                m.Add(z == 0).OnlyEnforceIf(present.Not())
                turns.append(size * z)
        full = m.NewIntVar(0, cap, f"{tag}_full")
        m.Add(full == sum(turns))
        intervals.append(m.NewFixedSizeIntervalVar(0, horizon, f"{tag}_turns"))
        demands.append(full)
        m.AddCumulative(intervals, demands, cap)

    # MEMORY CAPACITY per memory (the whole CTA).
    for name, cap in p.memory_capacity:
        sizes = mem.get(name, (0,) * n)
        members = [(v, sizes[v], True) for v in life if sizes[v]]
        if members and cap <= 0:
            return None
        live_cumulative(f"mem_{name}", members, cap)
    # REGISTER LIMIT per warp group.
    regs = mem.get("registers", (0,) * n)
    if p.reg_limit:
        for g in range(p.total_groups):
            members = [(v, regs[v], ow[v][g]) for v in life if regs[v] and g in ow[v]]
            live_cumulative(f"regs_wg{g}", members, p.reg_limit)

    # CONCURRENCY for blocking consumers and consumers of cross-warp transfers.
    blocked_by: dict[int, Any] = {}
    cross_lits: dict[int, list] = {}
    for e, (s, d, _delay, _dist) in enumerate(p.edges):
        if s == d:
            continue
        if p.blocking[e]:
            blocked_by[d] = True
        sg = same(s, d)
        if sg is False:
            blocked_by[d] = True
        elif sg is not True:
            cross_lits.setdefault(d, []).append(sg.Not())
    for v, lits in cross_lits.items():
        if blocked_by.get(v) is True:
            continue
        x = m.NewBoolVar(f"waits_{p.nodes[v]}")
        for lit in lits:
            m.AddImplication(lit, x)
        blocked_by[v] = x
    exposure: list[Any] = []        # busy time of the other ops on each blocking consumer's group
    for v, cond in blocked_by.items():
        for o in range(n):
            if o == v or p.busy[o] <= 0:
                continue
            sg = same(v, o)
            if sg is False:
                continue
            guard = [lit for lit in (sg, cond) if lit is not True]
            if p.busy[o] >= ii:
                if not guard:
                    return None
                m.AddBoolOr([lit.Not() for lit in guard])
                continue
            b = m.NewBoolVar(f"wrap_{p.nodes[v]}_{p.nodes[o]}")
            diff = m.NewIntVar(0, ii - 1, f"since_{p.nodes[v]}_{p.nodes[o]}")
            m.Add(diff == r[v] - r[o] + ii * b)
            m.Add(diff >= p.busy[o]).OnlyEnforceIf(guard)
            if not guard:
                exposure.append(p.busy[o])
            else:
                exposed = m.NewBoolVar(f"exposed_{p.nodes[v]}_{p.nodes[o]}")
                m.AddBoolOr([lit.Not() for lit in guard] + [exposed])     # exposed >= AND(guard)
                exposure.append(p.busy[o] * exposed)
    # Preferences among schedules of equal L (see CpSatJoint.solve): single-thread-issued ops off the
    # issue warp (first pass), then least blocking exposure and fewest values crossing between compute
    # groups (second pass).
    off = 0
    if p.issue_group is not None:
        off = sum(1 - ow[v][p.issue_group] for v in range(n)
                  if p.single_warp[v] and p.issue_group in ow[v] and not isinstance(ow[v][p.issue_group], bool))
    crossing = []
    for s_, d_, _delay, _dist in p.edges:
        if s_ == d_ or p.variable_latency[s_] or p.variable_latency[d_]:
            continue
        sg = same(s_, d_)
        if sg is True or sg is False:
            continue
        x = m.NewBoolVar(f"cross_{p.nodes[s_]}_{p.nodes[d_]}")
        m.AddImplication(sg.Not(), x)
        crossing.append(x)
    # Preference among equally short schedules (second pass): least blocking exposure, then fewest
    # crossings (see CpSatJoint.solve).
    prefer = None
    if crossing or any(not isinstance(x, int) for x in exposure):
        prefer = sum(exposure) * (len(crossing) + 1) + sum(crossing)
    return t, w, L, (off if p.issue_group is not None else None, prefer)


def _break_symmetry(m: Any, p: Any, w: list) -> None:
    """Compute groups are interchangeable: op j may open group g only if groups < g are in use."""
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
