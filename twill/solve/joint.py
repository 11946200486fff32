"""The joint problem (paper section 4): a modulo schedule and a warp-group assignment together.

Encoding (CP-SAT). The paper states its constraints over the straight-line program Q of ceil(L/I)
overlapped copies with boolean op/live/opw arrays; since the copies are identical shifts by I
(CONSISTENCY), we state the same families once per op on the steady state, with integer start
times t_v = I*k_v + r_v and a warp variable w_v:
- UNIQUENESS, CONSISTENCY: one (k_v, r_v) per op; copies are implied.
- COMPLETION: t_v + cycles_v <= L, with ceil(L/I) fixed to the stage count being searched.
- DEPENDENCE + CROSS-WARP SPILLS: t_dst + I*dist >= t_src + delay (+ spill(src) if warps differ).
- CAPACITY: per unit and modulo slot, as in the modulo ILP.
- VARIABLE LATENCY: variable-latency ops on the designated warp group W_vl, and only they.
- REGISTER LIMIT / MEMORY CAPACITY: each value's lifetime is [t_v, last use]; in the steady state
  it needs ceil(lifetime / I) copies (modulo variable expansion), so a warp group holds
  sum(regs_v * copies_v) bytes; shared and tensor memory likewise over the whole CTA. This counts
  every copy for the whole interval, so it is conservative against the paper's per-cycle liveness.
- CONCURRENCY: a consumer of a blocking edge on warp group w may not start while another op of w is
  executing: (t_v - t_o) mod I >= busy_o for every other o on w (busy_o >= I forces another group).
  Asynchronous ops (dots, TMA) keep their warp busy only to issue (1 unit).
- CROSS-WARP BLOCKING: a cross-warp transfer into v is a blocking wait too: the same rule applies to v.
- ``no_cross_warp`` forbids any edge between different warp groups (the paper's unsat case).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

from twill.graph.model import LoopGraph
from twill.solve.backends import slot_coefficients
from twill.solve.problem import Solution, SolveOptions

ASYNC_KINDS = {"dot", "tma_load", "load"}


@dataclass(frozen=True)
class JointProblem:
    nodes: tuple[str, ...]
    cycles: tuple[int, ...]
    busy: tuple[int, ...]                        # units the issuing warp is occupied
    rrt: tuple[tuple, ...]
    edges: tuple[tuple[int, int, int, int, bool], ...]   # src, dst, delay, distance, blocking
    capacity: tuple[tuple[str, int], ...]
    regs: tuple[int, ...]
    smem: tuple[int, ...]
    tmem: tuple[int, ...]
    variable_latency: tuple[bool, ...]
    spill: tuple[int, ...]                       # cross-warp transfer delay of each op's result (units)
    warp_groups: int                             # compute warp groups (W_vl is an extra one when needed)
    reg_limit: int                               # register bytes per warp group
    smem_limit: int
    tmem_limit: int
    no_cross_warp: bool = False
    name: str = "loop"

    @property
    def n(self) -> int:
        return len(self.nodes)

    @property
    def has_vl(self) -> bool:
        return any(self.variable_latency)

    @property
    def total_groups(self) -> int:
        return self.warp_groups + (1 if self.has_vl else 0)

    @classmethod
    def from_graph(cls, g: LoopGraph, machine: Any, *, scale: float, num_warps: int | None = None,
                   warp_groups: int | None = None, reg_limit: int | None = None,
                   no_cross_warp: bool = False) -> "JointProblem":
        """From a costed, normalised graph (``scale`` cycles per unit)."""
        idx = {o.id: i for i, o in enumerate(g.ops)}
        nw = num_warps or int(g.get("num_warps") or 4)
        groups = warp_groups or max(1, nw // 4)
        spill_rate = machine.rate("spill_bytes")
        return cls(
            nodes=g.ids, cycles=tuple(int(o.cycles or 0) for o in g.ops),
            busy=tuple(min(1, int(o.cycles or 0)) if o.kind in ASYNC_KINDS else int(o.cycles or 0) for o in g.ops),
            rrt=tuple(o.rrt for o in g.ops),
            edges=tuple((idx[d.src], idx[d.dst], int(d.delay or 0), d.distance, d.blocking) for d in g.deps),
            capacity=tuple(sorted(machine.units.items())),
            regs=tuple(o.regs for o in g.ops), smem=tuple(o.smem for o in g.ops), tmem=tuple(o.tmem for o in g.ops),
            variable_latency=tuple(o.variable_latency for o in g.ops),
            spill=tuple(max(1, math.ceil(2 * o.regs / spill_rate / scale)) if o.regs else 1 for o in g.ops),
            warp_groups=groups, reg_limit=machine.reg_bytes_per_warp_group(reg_limit),
            smem_limit=machine.memories.get("smem", 0), tmem_limit=machine.memories.get("tmem", 0),
            no_cross_warp=no_cross_warp, name=g.name)


def solve_joint_cpsat(p: JointProblem, ii: int, stages: int, options: SolveOptions,
                      min_length: int = 0) -> Solution:
    """Shortest L with ceil(L/ii) == stages (Algorithm 1's inner loop over L, in one solve)."""
    from ortools.sat.python import cp_model

    t0 = time.perf_counter()
    lo_len = max(min_length, (stages - 1) * ii + 1)
    hi_len = stages * ii
    m = cp_model.CpModel()
    G = p.total_groups
    vl_group = G - 1 if p.has_vl else None
    r = [m.NewIntVar(0, ii - 1, f"r{v}") for v in range(p.n)]
    k = [m.NewIntVar(0, stages, f"k{v}") for v in range(p.n)]
    t = [m.NewIntVar(0, hi_len, f"t{v}") for v in range(p.n)]
    w = [m.NewIntVar(0, G - 1, f"w{v}") for v in range(p.n)]
    L = m.NewIntVar(lo_len, hi_len, "L")
    y = [[m.NewBoolVar(f"y{v}_{s}") for s in range(ii)] for v in range(p.n)]
    ow = [[m.NewBoolVar(f"ow{v}_{g}") for g in range(G)] for v in range(p.n)]
    for v in range(p.n):
        m.AddExactlyOne(y[v])
        m.Add(r[v] == sum(s * y[v][s] for s in range(ii)))
        m.Add(t[v] == ii * k[v] + r[v])
        m.Add(t[v] + p.cycles[v] <= L)                                   # COMPLETION
        m.AddExactlyOne(ow[v])                                            # WARP UNIQUENESS
        m.Add(w[v] == sum(g * ow[v][g] for g in range(G)))
        if vl_group is not None:                                          # VARIABLE LATENCY
            m.Add(w[v] == vl_group) if p.variable_latency[v] else m.Add(w[v] != vl_group)
    same: dict[tuple[int, int], Any] = {}

    def same_group(a: int, b: int) -> Any:
        key = (min(a, b), max(a, b))
        if key not in same:
            b_ = m.NewBoolVar(f"same{key}")
            m.Add(w[a] == w[b]).OnlyEnforceIf(b_)
            m.Add(w[a] != w[b]).OnlyEnforceIf(b_.Not())
            same[key] = b_
        return same[key]

    for s, d, delay, dist, _blocking in p.edges:                          # DEPENDENCE, CROSS-WARP SPILLS
        if s == d:
            m.Add(t[d] + ii * dist >= t[s] + delay)
            continue
        sg = same_group(s, d)
        m.Add(t[d] + ii * dist >= t[s] + delay).OnlyEnforceIf(sg)
        m.Add(t[d] + ii * dist >= t[s] + delay + p.spill[s]).OnlyEnforceIf(sg.Not())
        if p.no_cross_warp:
            m.Add(sg == 1)
    for unit, cap in p.capacity:                                           # CAPACITY
        per_slot: dict[int, list] = {}
        for v in range(p.n):
            for (rr, slot), c in slot_coefficients(p.rrt[v], unit, ii).items():
                per_slot.setdefault(slot, []).append(c * y[v][rr])
        for terms in per_slot.values():
            m.Add(sum(terms) <= cap)
    # Lifetimes and copies (modulo variable expansion) for the memory families.
    copies = []
    for v in range(p.n):
        ends = [t[d] + ii * dist for s, d, _, dist, _ in p.edges if s == v]
        end = m.NewIntVar(0, hi_len + ii * 4, f"end{v}")
        m.AddMaxEquality(end, ends + [t[v] + max(1, p.cycles[v])])
        life = m.NewIntVar(0, hi_len + ii * 4, f"life{v}")
        m.Add(life == end - t[v])
        c = m.NewIntVar(1, stages + 5, f"copies{v}")
        m.Add(c * ii >= life)                                              # c = ceil(life / ii)
        m.Add((c - 1) * ii < life)                                         # and no more (life >= 1)
        copies.append(c)
    for mem, sizes, limit in (("smem", p.smem, p.smem_limit), ("tmem", p.tmem, p.tmem_limit)):
        if any(sizes) and limit:
            m.Add(sum(sizes[v] * copies[v] for v in range(p.n) if sizes[v]) <= limit)   # MEMORY CAPACITY
    for g in range(G):                                                     # REGISTER LIMIT
        terms = []
        for v in range(p.n):
            if not p.regs[v]:
                continue
            z = m.NewIntVar(0, stages + 5, f"cz{v}_{g}")
            m.Add(z == copies[v]).OnlyEnforceIf(ow[v][g])
            m.Add(z == 0).OnlyEnforceIf(ow[v][g].Not())
            terms.append(p.regs[v] * z)
        if terms:
            m.Add(sum(terms) <= p.reg_limit)
    # CONCURRENCY: blocking consumers (and consumers of cross-warp transfers) start only while no
    # other op of their warp group is executing.
    blocking_into = {d for s, d, _, _, b in p.edges if b and s != d}
    cross_into: dict[int, list[int]] = {}
    for s, d, _, _, _ in p.edges:
        if s != d:
            cross_into.setdefault(d, []).append(s)
    for v in range(p.n):
        for o in range(p.n):
            if o == v or p.busy[o] == 0:
                continue
            sg = same_group(v, o)
            conds = []
            if v in blocking_into:
                conds.append(None)
            else:
                for s in cross_into.get(v, []):
                    cw = same_group(s, v)
                    conds.append(cw.Not())
            if not conds:
                continue
            if p.busy[o] >= ii:
                for c in conds:
                    m.AddBoolOr([sg.Not()] + ([c.Not()] if c is not None else []))
                continue
            diff = m.NewIntVar(0, ii - 1, f"md{v}_{o}")
            m.AddModuloEquality(diff, t[v] - t[o] + ii * (stages + 2), ii)
            for c in conds:
                m.Add(diff >= p.busy[o]).OnlyEnforceIf([sg] + ([c] if c is not None else []))
    # Symmetry: compute warp groups are interchangeable; the first op on a compute group uses group 0.
    first_compute = next((v for v in range(p.n) if not p.variable_latency[v]), None)
    if first_compute is not None:
        m.Add(w[first_compute] == 0)
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
    start = {p.nodes[v]: solver.Value(t[v]) for v in range(p.n)}
    warp = {p.nodes[v]: solver.Value(w[v]) for v in range(p.n)}
    cps = {p.nodes[v]: solver.Value(copies[v]) for v in range(p.n)}
    stats["bound"] = solver.BestObjectiveBound()
    return Solution("optimal" if st == cp_model.OPTIMAL else "feasible",
                    {"start": start, "warp": warp, "length": solver.Value(L), "copies": cps}, stats)
