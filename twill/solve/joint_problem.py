"""The joint problem (paper section 4): modulo schedule, memory and warp-group assignment, solver-neutral.

Semantics shared by every backend and by ``twill.schedule.verify_joint`` (one statement, several
encodings). Figure 4-6 are stated over the straight-line program Q of S = ceil(L/I) copies of the
modulo schedule offset by I; CONSISTENCY makes every copy a shift of copy 0, and Q's steady-state
window [(S-1)I, SI) holds an instance of every op and every execution that overlaps it, so each
family reduces to a condition on copy 0 folded modulo I:

- UNIQUENESS / CONSISTENCY: one start t_v per op; instance i issues at t_v + i*I.
- COMPLETION: t_v + cycles_v <= L.  DEPENDENCE: t_dst + I*distance >= t_src + delay.
- CAPACITY: the modular reservation table (every reservation folded modulo I) within capacity.
- MEMORY CAPACITY (Figure 5): instance i of value v is live on [t_v + iI, end_v + iI), where
  end_v = max(t_v + 1, max over uses (t_u + I*distance + hold_u)); this is the interval that
  Figure 5's INIT / LIVEPROP / DEADPROP rules compute (live from the definition up to the last use)
  with two deliberate differences: a used value is live for at least one unit (the literal rules
  make a zero-delay use live from time 0), and the live set is the steady state's (copies issued
  before copy 0 count too, as in the running loop, and INIT's "live at T" becomes "live until its
  real next-iteration use"). ``hold_u`` is how long a consumer keeps reading its operands after it
  issues (asynchronous GEMMs read shared memory and registers until they finish; 0 otherwise).
  The footprint of every live instance counts against each memory, at every time.
- WARP UNIQUENESS: one warp group per op (groups 0..W-1 compute, W_vl = W for variable-latency ops).
- VARIABLE LATENCY: variable_latency(v) <=> v on W_vl.
- REGISTER LIMIT: live register footprint of the values each group produced <= reg_limit, at every time.
- CROSS-WARP SPILLS: an edge between different groups needs t_dst + I*distance >= t_src + delay + spill_src.
- CONCURRENCY: when a consumer of a blocking edge, or of a cross-warp edge (a transfer through shared
  memory waits on a barrier), issues on group w, no other op of w is executing: for every o != v on
  w, (t_v - t_o) mod I >= busy_o (an op with busy_o >= I always executes, so it needs another group).
- RETIREMENT (``in_order``, the Gluon route's asynchronous wgmma): a warp group retires its asynchronous
  dots in issue order (``warpgroup_mma_wait(n)`` leaves the n most recent in flight), so a reader of dot b
  also waits for every in-order dot a of b's group issued at or before b: with g = (t_b - t_a) mod I the
  latest instance of a issued by then started at t_b - g, and every consumer d of b (an edge b -> d,
  distance k; d not itself an in-order dot, which chains on the tensor core without a wait) needs
  t_d + I*k >= t_b - g + cycles_a. Such a dot's ``busy`` is its issue time: its group runs on while it executes.
  With the tensor core at capacity 1 and a dot's cycles equal to its reservation this is implied (a's
  reservation ends before b's starts); it binds where a dot's latency outlasts its reservation.
- GROUP SEQUENCE (``sequential``, the Gluon route, whose partitions are straight-line code): a warp
  group issues its ops one after another, so the busy arcs [t_v, t_v + busy_v) of the ops of one group
  are disjoint modulo I (an op with busy_v > I cannot be on one; busy_v = I fills it).
- LOOKAHEAD (``lookahead``, a search dimension of the Gluon route): for asynchronous dots a, b where b reads
  a's result in the same iteration (a path of distance-0 edges), on one group t_a + I <= t_b < t_r + I for
  every reader r of a in the iteration that is not a dot: b(j) issues after a(j + 1) and before a(j + 1)'s
  result is read, so the group's wait for a(j + 1) leaves b(j) in flight while it works on that result (the
  FA forward's softmax overlapping the previous PV: the probe's wait depth 1). The model's costs do not
  price that wait; the route replays the kernels with and without and keeps the faster.
- ``no_cross_warp`` forbids edges between different compute groups (loads on W_vl still feed them
  through shared memory: that is the producer/consumer split every warp-specialised kernel has).

What is proved is the smallest (I, L). Among schedules of that (I, L) the CP-SAT backend then prefers,
in order: single-thread-issued ops on the issue warp; the least blocking exposure (the busy time of
the other ops on each waiting op's group: a wait whose producer runs late stalls them); the fewest
values crossing between compute groups (``twill.schedule.verify_joint.preferences`` recomputes both).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from twill.errors import GraphError, InputError, MachineError
from twill.graph.model import LoopGraph, Op, Reservation
from twill.solve.problem import ModuloProblem

MEMORIES = ("registers", "smem", "tmem")
CTA_WARPS = 32          # warps a CTA holds (1024 threads, Hopper and Blackwell)


def copied_async(op: Op, graph: LoopGraph) -> bool:
    """True for a load the Gluon route's producer copies into a ring without waiting for it: a TMA load, or a pointer
    load whose tile goes to shared memory only (its ``ttg.local_alloc`` folded into the node, dots its only readers;
    ``codegen.gluon.plan.pointer_tiles`` copies those with cp.async). One whose tile is also read in registers (FLA's
    chunk_kkt scales K by beta and reads K^T in shared memory) is loaded by its readers' warps, which wait for it."""
    if op.kind == "tma_load":
        return True
    readers = {d.dst for d in graph.deps if d.src == op.id}
    kinds = {o.kind for o in graph.ops if o.id in readers}
    return op.kind == "load" and "ttg.local_alloc" in op.ops and kinds <= {"dot"}


def reads_operands_async(op: Op) -> bool:
    """True when ``op`` keeps reading its operands after it issues (asynchronous tensor-core GEMMs)."""
    return op.kind == "dot" and bool(op.attr("async", True))


@dataclass(frozen=True)
class JointProblem:
    """Joint software pipelining + warp specialization of one loop (paper Figures 4-6).

    The first six fields are ``ModuloProblem``'s. ``blocking[e]`` flags edge e; ``footprint`` maps a
    memory name (registers, smem, tmem) to per-node bytes; ``memory_capacity`` its bytes;
    ``variable_latency[v]`` puts v on W_vl; ``spill[v]`` is the delay (units) of v's value crossing
    warp groups; ``hold[v]`` how long v reads its operands after issue; ``busy[v]`` how long v keeps
    its warp group executing (the concurrency family); ``warp_groups`` is W, the compute groups;
    ``reg_limit`` register bytes per group.

    Examples
    --------
    >>> from twill.graph.model import Reservation as R
    >>> p = JointProblem(("S", "P"), (1, 1), ((R("tc", 0, 1),), (R("sfu", 0, 1),)), ((0, 1, 1, 0),),
    ...                  (("sfu", 1), ("tc", 1)), blocking=(True,), warp_groups=2)
    >>> p.total_groups, p.vl_group
    (2, None)
    """

    nodes: tuple[str, ...]
    cycles: tuple[int, ...]
    rrt: tuple[tuple[Reservation, ...], ...]
    edges: tuple[tuple[int, int, int, int], ...]
    capacity: tuple[tuple[str, int], ...]
    name: str = "loop"
    blocking: tuple[bool, ...] = ()
    footprint: tuple[tuple[str, tuple[int, ...]], ...] = ()
    memory_capacity: tuple[tuple[str, int], ...] = ()
    variable_latency: tuple[bool, ...] = ()
    spill: tuple[int, ...] = ()
    hold: tuple[int, ...] = ()
    busy: tuple[int, ...] = ()
    warp_groups: int = 1
    reg_limit: int = 0
    no_cross_warp: bool = False
    warps_per_group: int = 4
    stage_order: tuple[tuple[int, int], ...] = ()
    single_warp: tuple[bool, ...] = ()
    pinned: tuple[int, ...] = ()            # a fixed group per node (-1: free), to test a given strategy
    in_order: tuple[bool, ...] = ()         # asynchronous dots a group retires in issue order (RETIREMENT)
    sequential: bool = False                # each group issues its ops one at a time (GROUP SEQUENCE)
    lookahead: tuple[tuple[int, int, tuple[int, ...]], ...] = ()   # (a, b, readers of a) (LOOKAHEAD)
    one_partition: bool = False             # one group of all the CTA's warps, its loads its own (``from_graph``)
    together: tuple[tuple[int, int], ...] = ()   # (a, b): one compute group holds both (TOGETHER, ``from_graph``)

    def __post_init__(self) -> None:
        n = len(self.nodes)
        _ = self.modulo   # the same checks as the modulo problem
        defaults = {"blocking": (False,) * len(self.edges), "variable_latency": (False,) * n,
                    "spill": (0,) * n, "hold": (0,) * n, "busy": self.cycles, "single_warp": (False,) * n,
                    "in_order": (False,) * n}
        for key, value in defaults.items():
            if not getattr(self, key):
                object.__setattr__(self, key, value)
        if len(self.blocking) != len(self.edges):
            raise GraphError("one blocking flag per edge", where=self.name, expected=str(len(self.edges)),
                             found=str(len(self.blocking)))
        for key in ("variable_latency", "spill", "hold", "busy", "single_warp", "in_order"):
            if len(getattr(self, key)) != n:
                raise GraphError(f"one {key} entry per node", where=self.name, expected=str(n),
                                 found=str(len(getattr(self, key))))
        for mem, sizes in self.footprint:
            if len(sizes) != n or min(sizes, default=0) < 0:
                raise GraphError(f"one non-negative {mem} footprint per node", where=self.name,
                                 expected=str(n), found=str(len(sizes)))
        if self.warp_groups < 1:
            raise InputError("at least one compute warp group", where=self.name, expected=">= 1",
                             found=str(self.warp_groups))
        if any(not (0 <= a < n and 0 <= b < n) or a == b for a, b in self.together):
            raise GraphError("bad together pair", where=self.name, found=str(self.together))
        if any(not all(0 <= v < n for v in (a, b, *rs)) or a == b for a, b, rs in self.lookahead):
            raise GraphError("bad lookahead pair", where=self.name, found=str(self.lookahead))
        if min(self.spill + self.hold + self.busy, default=0) < 0:
            raise GraphError("negative spill, hold or busy time", where=self.name)

    # -- derived --------------------------------------------------------------------------------
    @property
    def n(self) -> int:
        return len(self.nodes)

    @property
    def vl_group(self) -> int | None:
        """W_vl: the group after the compute groups, present when some op has variable latency."""
        return self.warp_groups if any(self.variable_latency) else None

    @property
    def issue_group(self) -> int | None:
        """W_1: a one-warp group for ops a single thread issues (Blackwell's tcgen05 MMAs), after
        W_vl, present when some op may take it; the solver decides whether such an op goes there or
        onto a compute group."""
        if not any(self.single_warp):
            return None
        return self.warp_groups + (1 if self.vl_group is not None else 0)

    @property
    def total_groups(self) -> int:
        return self.warp_groups + (1 if self.vl_group is not None else 0) + (1 if self.issue_group is not None else 0)

    def groups_of(self, v: int) -> tuple[int, ...]:
        """The groups op v may take (VARIABLE LATENCY decides between W_vl and the compute groups;
        a single-thread-issued op may also take W_1)."""
        if self.pinned and self.pinned[v] >= 0:
            return (self.pinned[v],)
        if self.variable_latency[v]:
            return (self.warp_groups,)
        if self.single_warp[v]:
            return tuple(range(self.warp_groups)) + (self.issue_group,)
        return tuple(range(self.warp_groups))

    @property
    def memories(self) -> dict[str, tuple[int, ...]]:
        return dict(self.footprint)

    @property
    def modulo(self) -> ModuloProblem:
        """The modulo problem underneath (Figure 4 alone): the seed of Algorithm 1."""
        return ModuloProblem(self.nodes, self.cycles, self.rrt, self.edges, self.capacity, self.name,
                             self.stage_order)

    def concurrency_bound(self) -> tuple[int, str]:
        """``(I, why)``: no joint schedule has a smaller I when every op's group is fixed (0 when
        some op may choose). Two ops that wait on one group (a blocking edge, or a transfer from
        another group) each start while the other is not executing, so their busy arcs on the
        circle of I slots are disjoint, and the busy times of a group's waiting ops sum to at most I.

        Examples
        --------
        >>> from twill.graph.model import Reservation as R
        >>> p = JointProblem(("S", "P", "O"), (3, 4, 3), ((R("tc", 0, 3),), (R("sfu", 0, 4),), (R("tc", 0, 3),)),
        ...                  ((0, 1, 3, 0), (1, 2, 4, 0), (2, 2, 3, 1)), (("sfu", 1), ("tc", 1)),
        ...                  blocking=(True, True, False))
        >>> p.concurrency_bound()
        (7, 'waiting ops on group 0: P, O (busy 4 + 3)')
        """
        if any(len(self.groups_of(v)) != 1 for v in range(self.n)):
            return 0, ""
        group = [self.groups_of(v)[0] for v in range(self.n)]
        waits = sorted({d for e, (s_, d, _, _) in enumerate(self.edges)
                        if s_ != d and (self.blocking[e] or group[s_] != group[d])})
        best, why = 0, ""
        for g in sorted(set(group)):
            members = [v for v in waits if group[v] == g and self.busy[v] > 0]
            total = sum(self.busy[v] for v in members)
            if total > best:
                best = total
                why = (f"waiting ops on group {g}: {', '.join(self.nodes[v] for v in members)} "
                       f"(busy {' + '.join(str(self.busy[v]) for v in members)})")
        return best, why

    def ii_ceiling(self) -> int:
        """The largest I the joint search tries: one iteration laid out op after op (each op's longest
        reservation, busy or hold time and its spill, end to end) plus every edge's delay, so that at
        this I an iteration can end before the next one starts. Above it the iterations no longer
        overlap, a larger I only lengthens the carried values' lives, and the model's horizon grows
        with I (CP-SAT refuses a model whose domains do not fit in 64 bits).

        Examples
        --------
        >>> from twill.graph.model import Reservation as R
        >>> JointProblem(("S", "P"), (3, 4), ((R("tc", 0, 3),), (R("sfu", 0, 4),)), ((0, 1, 3, 0),),
        ...              (("sfu", 1), ("tc", 1))).ii_ceiling()
        10
        """
        ops = sum(self._width(v) for v in range(self.n))
        return max(1, ops + sum(max(0, delay) for _, _, delay, _ in self.edges))

    def _width(self, v: int) -> int:
        return max([self.cycles[v], self.busy[v], self.hold[v]] + [r.offset + r.length for r in self.rrt[v]]) \
            + self.spill[v]

    def sequential_starts(self) -> tuple[int, ...]:
        """A start per node of one iteration laid out op after op, in program order where the distance-0 edges
        allow (node order breaks ties), each op after the one before it ends and after its producers' delays: the
        layout ``ii_ceiling`` bounds, within it. At I = ``ii_ceiling()`` the joint search is seeded with it: it holds
        the fewest values live at once, the one schedule a register limit surely leaves (axolotl's DoRA norm: the
        modulo seed there, its loads together, had left CP-SAT timing out at the ceiling).

        Examples
        --------
        >>> from twill.graph.model import Reservation as R
        >>> JointProblem(("S", "P"), (3, 4), ((R("tc", 0, 3),), (R("sfu", 0, 4),)), ((0, 1, 5, 0),),
        ...              (("sfu", 1), ("tc", 1))).sequential_starts()
        (0, 5)
        """
        preds: list[list[tuple[int, int]]] = [[] for _ in range(self.n)]
        indeg = [0] * self.n
        for a, b, delay, dist in self.edges:
            if dist == 0 and a != b:
                preds[b].append((a, delay))
                indeg[b] += 1
        succs: list[list[int]] = [[] for _ in range(self.n)]
        for b in range(self.n):
            for a, _ in preds[b]:
                succs[a].append(b)
        ready = sorted(v for v in range(self.n) if indeg[v] == 0)
        start = [0] * self.n
        end = 0
        while ready:
            v = ready.pop(0)
            start[v] = max([end] + [start[a] + d for a, d in preds[v]])
            end = start[v] + self._width(v)
            for b in succs[v]:
                indeg[b] -= 1
                if indeg[b] == 0:
                    ready.append(b)
                    ready.sort()
        return tuple(start)

    def retirement_pairs(self) -> list[tuple[int, int, list[tuple[int, int]]]]:
        """RETIREMENT's terms: ``(a, b, readers)`` for in-order dots a != b that may share a group, with
        b's readers ``(d, distance)`` that wait for it (not b itself, not another in-order dot).

        Examples
        --------
        >>> from twill.graph.model import Reservation as R
        >>> p = JointProblem(("A", "B", "X"), (3, 3, 1), ((R("tc", 0, 3),), (R("tc", 0, 3),), ()),
        ...                  ((1, 2, 3, 0),), (("tc", 1),), in_order=(True, True, False))
        >>> p.retirement_pairs()
        [(0, 1, [(2, 0)])]
        """
        dots = [v for v in range(self.n) if self.in_order[v]]
        out = []
        for b in dots:
            readers = sorted({(d, dist) for s_, d, _delay, dist in self.edges if s_ == b and d != b and not self.in_order[d]})
            for a in dots:
                if a != b and readers and set(self.groups_of(a)) & set(self.groups_of(b)):
                    out.append((a, b, readers))
        return out

    def lookahead_stages(self) -> int:
        """The most LOOKAHEAD pairs in a chain (a -> b -> c ...): each puts its second dot an iteration (a
        stage) after its first, so the joint search's lengths go that many stages past the modulo schedule's."""
        succ: dict[int, list[int]] = {}
        for a, b, _ in self.lookahead:
            succ.setdefault(a, []).append(b)
        depth: dict[int, int] = {}
        def longest(v: int) -> int:
            if v not in depth:
                depth[v] = 0
                depth[v] = max((1 + longest(w) for w in succ.get(v, ())), default=0)
            return depth[v]
        return max((longest(a) for a in succ), default=0)

    def cross_warp_allowed(self, s: int, d: int) -> bool:
        """``no_cross_warp`` forbids only transfers between compute groups."""
        return not self.no_cross_warp or self.variable_latency[s] or self.variable_latency[d]

    def params(self) -> dict[str, Any]:
        """The parameters a checker needs, as plain JSON (recorded in the schedule)."""
        return {"compute_groups": self.warp_groups, "warps_per_group": self.warps_per_group, "vl_group": self.vl_group,
                "issue_group": self.issue_group, "single_warp": [n for n, x in zip(self.nodes, self.single_warp) if x], "reg_limit_bytes": self.reg_limit,
                "memory_capacity": dict(self.memory_capacity), "no_cross_warp": self.no_cross_warp,
                "spill": dict(zip(self.nodes, self.spill)), "hold": dict(zip(self.nodes, self.hold)),
                "busy": dict(zip(self.nodes, self.busy)),
                "in_order": [n for n, x in zip(self.nodes, self.in_order) if x],
                "sequential": self.sequential,
                "lookahead": [[self.nodes[a], self.nodes[b], [self.nodes[r] for r in rs]] for a, b, rs in self.lookahead],
                "footprint": {m: dict(zip(self.nodes, sizes)) for m, sizes in self.footprint},
                **({"one_partition": True} if self.one_partition else {}),
                **({"together": [[self.nodes[a], self.nodes[b]] for a, b in self.together]} if self.together else {})}

    # -- construction ---------------------------------------------------------------------------
    @classmethod
    def from_graph(cls, g: LoopGraph, machine: Any, num_warps: int | None = None, *,
                   warp_groups: int | None = None, reg_limit: int | None = None, scale: float = 1.0,
                   no_cross_warp: bool = False, hold_async: bool = False,
                   warps_per_op: int | None = None,
                   stage_order: tuple[tuple[str, str], ...] = (),
                   async_issue: float | None = None, lookahead: tuple[int | None, ...] = (),
                   one_partition: bool = False, async_copies: bool = False,
                   issued_loads: bool = False, together: tuple[tuple[str, str], ...] = ()) -> "JointProblem":
        """The joint problem of a costed, normalised graph on ``machine``.

        ``scale`` is machine cycles per schedule unit (cost normalisation); W is ``warp_groups``,
        else ``num_warps // warps_per_op`` (``num_warps`` defaulting to the graph's). ``warps_per_op``
        defaults to ``warps_per_tile(g, machine)``: an op whose tile needs 8 warps, e.g. a 128-row
        wgmma on Hopper, makes a group 8 warps wide, which is why a kernel that is not sub-tiled
        cannot be split); ``reg_limit`` is registers
        per thread (default the machine's maximum). ``hold_async`` keeps the operands of
        asynchronous GEMMs live until the GEMM completes (off by default: the paper's liveness ends
        at the last use's issue, and a wgmma accumulates in place). ``async_issue`` (cycles; the Gluon
        route, which writes each wgmma's wait itself and each partition as straight-line code) makes the
        asynchronous dots RETIREMENT's in-order dots, each keeping its group busy only that long, and the
        groups sequential (GROUP SEQUENCE). ``lookahead``: the row sub-tiles (None: an op not split) whose
        dots take LOOKAHEAD's terms (``lookahead_pairs``). ``one_partition`` (the Gluon route, for a kernel of
        more warps than a CTA may specialise, Liger's 32-warp cross entropy): the kernel runs as one partition
        of all its warps, which issue their own loads: one compute group of ``num_warps`` warps that holds
        every op, the loads too (no variable-latency group: a loaded tile crosses to no other group, so no
        shared buffer holds it); the budget is then the CTA's threads (``CTA_WARPS``), not the
        specialisation's. ``async_copies`` (the Gluon route, whose producer copies each ring's tile with TMA or
        cp.async and waits for none of them: its consumers wait on the ring's barrier): such a copy (``copied_async``)
        keeps its group busy while it holds its unit (its issue: the TMA unit's, or the LSU's transfer), not for its
        latency (run 173: the int8 GEMM's two A sub-tile loads, 918 cycles each, held its producer one after the
        other). A pointer load its readers hold in registers keeps its latency: the Gluon route's consumers issue it;
        with ``issued_loads`` (experimental) it too keeps its group busy for its issue only (the LSU's transfer: its
        issuers run on until they read it), its latency left on the edges to its readers (session 69's replay, which
        prices it so, and the loop runs of runs 182-186: awq's four loads, 2559 cycles an iteration as held, 646
        measured). ``together`` (node ids, the Gluon route): pairs of ops one compute group must hold both of, their
        loop results read together by the code after the loop (a SwiGLU GEMM's store of ``silu(gate) * up``: each
        accumulator in a group of its own had left no partition holding both).
        Spill cost: the value's register bytes written
        to and read back from shared memory at the machine's ``spill_bytes`` rate.

        Examples
        --------
        >>> p = JointProblem.from_graph(graph, load_machine("h100"), 8, scale=64.0)   # doctest: +SKIP
        >>> p.warp_groups, p.vl_group                                                 # doctest: +SKIP
        (2, 2)
        """
        mp = ModuloProblem.from_graph(g, machine.units, stage_order)
        single = tuple(o.kind == "dot" and int(getattr(machine, "sm", 90)) >= 100 for o in g.ops)
        warp_groups, warps_per_op = _warp_budget(g, machine, num_warps or g.get("num_warps"), warp_groups,
                                                 warps_per_op, any(single), one_partition)
        if scale <= 0:
            raise InputError("bad time unit", where=g.name, expected="> 0 cycles per unit", found=str(scale))
        rate = machine.rate("spill_bytes")
        spill = tuple(math.ceil(2 * o.regs / rate / scale) if o.regs else 0 for o in g.ops)
        caps = dict(machine.memories)
        group_regs = machine.reg_bytes_per_warp_group(reg_limit) * max(1, warps_per_op // 4)
        if one_partition:               # the one group is the CTA: its register limit is the CTA's capacity
            caps["registers"] = group_regs
        in_order = tuple(async_issue is not None and reads_operands_async(o) for o in g.ops)
        busy = tuple(max(1, math.ceil(float(async_issue) / scale)) if x else c for x, c in zip(in_order, mp.cycles))
        def issued(o: Op) -> bool:      # held for its issue (its unit's reservation), not its latency
            copy = copied_async(o, g)
            return (async_copies and not one_partition and copy) or (issued_loads and o.kind == "load" and not copy)
        busy = tuple(max(1, min(b, max((r.offset + r.length for r in rr), default=1))) if issued(o) else b
                     for o, b, rr in zip(g.ops, busy, mp.rrt))
        return cls(nodes=mp.nodes, cycles=mp.cycles, rrt=mp.rrt, edges=mp.edges, capacity=mp.capacity, name=g.name,
                   blocking=tuple(d.blocking for d in g.deps),
                   footprint=(("registers", tuple(o.regs for o in g.ops)), ("smem", tuple(o.smem for o in g.ops)),
                              ("tmem", tuple(o.tmem for o in g.ops))),
                   memory_capacity=tuple((m, int(caps.get(m, 0))) for m in MEMORIES),
                   variable_latency=tuple(o.variable_latency and not one_partition for o in g.ops), spill=spill,
                   hold=tuple(int(o.cycles or 0) if hold_async and reads_operands_async(o) else 0 for o in g.ops),
                   busy=busy, warp_groups=int(warp_groups),
                   reg_limit=group_regs, no_cross_warp=no_cross_warp, warps_per_group=int(warps_per_op), stage_order=mp.stage_order,
                   single_warp=single, in_order=in_order, sequential=async_issue is not None,
                   lookahead=lookahead_pairs(g, lookahead) if lookahead else (), one_partition=one_partition,
                   together=_pairs(g, together))


def _pairs(g: LoopGraph, together: tuple[tuple[str, str], ...]) -> tuple[tuple[int, int], ...]:
    """``together``'s node ids as indices of ``g``'s ops; a name not in ``g`` is an error."""
    index = {o.id: i for i, o in enumerate(g.ops)}
    missing = sorted({x for pair in together for x in pair} - set(index))
    if missing:
        raise GraphError("together names ops not in the graph", where=g.name, found=", ".join(missing))
    return tuple((index[a], index[b]) for a, b in together if a != b)


def _warp_budget(g: LoopGraph, machine: Any, nw: Any, warp_groups: int | None, warps_per_op: int | None,
                 single: bool, one_partition: bool) -> tuple[int, int]:
    """``(compute groups, warps per group)`` of ``from_graph``, within the warps a CTA may specialise: the compute
    groups, the variable-latency group (a warp group on Hopper, where the producer also deallocates registers; one
    warp on Blackwell) and the issue warp of ops one thread issues (``single``: Blackwell's tcgen05 MMAs, PTX ISA
    "issued by a single thread"; FA4 gives them, like the loads, one warp of their own). ``one_partition``: one group
    of all ``nw`` warps, which issue their own loads; the budget the CTA's threads."""
    if warps_per_op is None:
        warps_per_op = warps_per_tile(g, machine, int(nw) if nw else None)
    if (one_partition or warp_groups is None) and not nw:
        raise InputError("number of warps unknown", where=g.name, expected="num_warps in the graph or a flag",
                         found="none")
    if one_partition:
        warp_groups, warps_per_op = 1, int(nw)
    derived = warp_groups is None      # from the kernel's warps, not asked for
    if warp_groups is None:
        warp_groups = max(1, int(nw) // warps_per_op)
    vl = any(o.variable_latency for o in g.ops) and not one_partition
    vl_warps = (4 if int(getattr(machine, "sm", 90)) < 100 else 1) if vl else 0
    budget = CTA_WARPS if one_partition else machine.max_warp_groups * 4
    if derived and not one_partition and int(warp_groups) * int(warps_per_op) <= budget:
        # a kernel of the whole budget's warps (Inductor's 16-warp reductions): the loads' group takes its warps
        # from the compute groups'
        warp_groups = max(1, min(int(warp_groups), (budget - vl_warps - single) // int(warps_per_op)))
    used = int(warp_groups) * int(warps_per_op) + vl_warps + (1 if single else 0)
    if used > budget:
        raise MachineError("more warps than a CTA may specialise", where=g.name,
                           expected=f"<= {budget} warps (compute groups, variable-latency and issue warps)",
                           found=f"{warp_groups} x {warps_per_op} + {vl_warps} + {int(single)}")
    return int(warp_groups), int(warps_per_op)


def subtile_of(op: Op) -> int | None:
    """The row sub-tile a split op belongs to (``twill.graph.split``), None for an op not split."""
    s = op.attr("subtile", None)
    return None if s is None else int(s)


def lookahead_pairs(g: LoopGraph, subtiles: tuple[int | None, ...] | None = None
                    ) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """LOOKAHEAD's terms of ``g`` (node indices): ``(a, b, readers)`` for asynchronous dots a != b with a path
    of distance-0 edges from a to b (b reads a's result, or a value computed from it, in the same
    iteration), and the ops other than dots that read a's result in the same iteration; only dots a of the
    row sub-tiles ``subtiles`` when given.

    Examples
    --------
    >>> [(g.ops[a].id, g.ops[b].id) for a, b, _ in lookahead_pairs(g)]     # doctest: +SKIP
    [('dot0_qk', 'dot1_acc')]
    """
    index = {o.id: i for i, o in enumerate(g.ops)}
    dots = {o.id for o in g.ops if reads_operands_async(o)}
    succ: dict[str, list[str]] = {}
    for d in g.deps:
        if d.distance == 0 and d.src != d.dst:
            succ.setdefault(d.src, []).append(d.dst)
    out = []
    for a in sorted(dots, key=index.__getitem__):
        if subtiles is not None and subtile_of(g.ops[index[a]]) not in subtiles:
            continue
        seen, stack = set(), list(succ.get(a, ()))
        while stack:
            v = stack.pop()
            if v not in seen:
                seen.add(v)
                stack += succ.get(v, ())
        readers = tuple(sorted({index[r] for r in succ.get(a, ()) if r not in dots}))
        out += [(index[a], index[b], readers) for b in sorted(dots, key=index.__getitem__) if b != a and b in seen]
    return tuple(out)


# Rows of a tensor-core tile one 4-warp group handles: a Hopper wgmma is m64nNk16 per warpgroup (PTX ISA,
# "Asynchronous Warpgroup Level Matrix Multiply-Accumulate", shapes), so a 128-row tile spans two
# groups; on Blackwell the accumulator lives in tensor memory, 128 lanes, and a warp group's four
# warps read 32 lanes each (PTX ISA, tcgen05 "Tensor Memory" access restrictions).
ROWS_PER_WARP_GROUP = {90: 64, 100: 128}


def warps_per_tile(g: LoopGraph, machine: Any, num_warps: int | None = None) -> int:
    """Warps one op of ``g`` needs: 4 per ROWS_PER_WARP_GROUP rows of its widest tensor-core tile
    (at most ``num_warps``). FA forward with 128-row tiles on Hopper: 8, one 8-warp compute group.

    Examples
    --------
    >>> warps_per_tile(LoopGraph("empty", (), ()), type("M", (), {"sm": 90})())
    4
    """
    rows = ROWS_PER_WARP_GROUP.get(int(getattr(machine, "sm", 90)), 64)
    m = max([int(o.attr("m", 0) or 0) for o in g.ops if o.kind == "dot"] + [0])
    warps = 4 * max(1, math.ceil(m / rows))
    return min(warps, num_warps) if num_warps else warps


@dataclass(frozen=True)
class JointAtIL:
    """One step of Algorithm 1: ``problem`` at a fixed ``ii`` with L in [lo, hi] and
    ceil(hi / ii) == ceil(lo / ii) (the stage count fixed); backends minimise L in that range.
    ``hint``: the start per node of the modulo schedule M that seeds this step (the paper's "M and I
    are used to seed a system of constraints"); a starting point for the search, not a constraint."""

    problem: JointProblem
    ii: int
    lo: int
    hi: int
    hint: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.ii < 1 or self.lo < 1 or self.lo > self.hi or math.ceil(self.lo / self.ii) != math.ceil(self.hi / self.ii):
            raise GraphError("bad joint step", where=self.problem.name,
                             expected="ii >= 1, 1 <= lo <= hi, one stage count",
                             found=f"ii={self.ii}, L in [{self.lo}, {self.hi}]")

    @property
    def stages(self) -> int:
        return math.ceil(self.hi / self.ii)


def arcs(length: int, ii: int) -> tuple[int, int]:
    """``(full, rest)``: a stretch of ``length`` units folded modulo ``ii`` covers every slot
    ``full`` times and ``rest`` further consecutive slots once."""
    return divmod(length, ii)
