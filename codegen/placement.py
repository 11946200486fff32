"""Where each graph node goes in the loop Triton pipelines: its stage and cluster, the distance the loads
run ahead, and the realisability constraints of the installed Triton's pipeliner.

Stage mapping: variable-latency loads run ahead (paper 5.3) by ``d`` stages, ``d`` the loads'
latency over the initiation interval rounded up; compute op v gets stage ``d + start[v] // II``.
Clusters order the body by modulo slot ``start[v] mod II``; the loads are issued last, for later
iterations. Triton 3.6's pipeliner cannot predicate a ``warp_group_dot`` (or ``tc_gen5_mma``) that
sits in an earlier stage than the last one (``'ttng.warp_group_dot' op pipeliner doesn't know how
to predicate this op``; Triton 3.9 compiles it): such a schedule is not realisable there, and
``placement`` projects it onto the realisable set (all compute in one stage, ordered by start
time), recording what was given up.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from twill.errors import CompileError
from twill.graph.model import LoopGraph, Op
from twill.ir import vocab
from twill.ir.triton_hooks import triton_version as installed_triton
from twill.machine.model import Machine
from twill.schedule.model import Schedule


@dataclass(frozen=True)
class Constraint:
    """A realisability constraint the search can honour: ``ops`` must all be in the loop's last stage."""

    kind: str
    ops: tuple[str, ...]
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "ops": list(self.ops), "reason": self.reason}


@dataclass(frozen=True)
class Placement:
    """Stage and cluster of every graph node, the loop's max stage, and what the projection gave up."""

    stage: tuple[tuple[str, int], ...]
    cluster: tuple[tuple[str, int], ...]
    max_stage: int
    load_distance: int
    projected: bool = False
    violated: tuple[Constraint, ...] = ()
    notes: tuple[str, ...] = field(default=())

    @property
    def stage_map(self) -> dict[str, int]:
        return dict(self.stage)

    @property
    def cluster_map(self) -> dict[str, int]:
        return dict(self.cluster)

    def to_dict(self) -> dict[str, Any]:
        return {"stage": dict(self.stage), "cluster": dict(self.cluster), "max_stage": self.max_stage,
                "load_distance": self.load_distance, "projected": self.projected,
                "violated": [c.to_dict() for c in self.violated], "notes": list(self.notes)}


def realisability_constraints(g: LoopGraph, triton_version: str | None = None) -> tuple[Constraint, ...]:
    """Constraints of the installed Triton's pipeliner on this graph (3.6: dots in the last stage)."""
    triton_version = triton_version or installed_triton()
    major, minor = (int(x) for x in re.findall(r"\d+", triton_version)[:2])
    dots = tuple(o.id for o in g.ops if o.kind == "dot")
    out = []
    if (major, minor) < (3, 9) and dots:
        out.append(Constraint("last_stage", dots,
                              f'triton {triton_version}: "pipeliner doesn\'t know how to predicate this op" for a '
                              "warp_group_dot in an earlier stage than the last"))
    # A dot Triton lowers to mma.sync or FMAs (still ``tt.dot`` after its matmul pass: a tile of fewer than 64 rows
    # per warpgroup on sm_90, an fp32 dot at IEEE precision) whose operands come out of registers converted in an
    # earlier stage: triton 3.6's prefetch pass fails (``awq_gemm``'s dequantisation, offline); its own schedules
    # keep them together
    sync = tuple(o.id for o in g.ops if o.kind == "dot" and "tt.dot" in o.ops)
    if (major, minor) < (3, 9) and sync:
        out.append(Constraint("last_stage", _loaded(g),
                              f"triton {triton_version}: the prefetch pass fails for an mma.sync dot whose operands "
                              "were computed in an earlier stage"))
    # Found by compiling offline with triton 3.6 (sm_90 and sm_100): a barrier, a TMA store or a
    # compare-and-swap before the last stage is refused the same way (a tt.store, an atomic add and an
    # scf.if holding a store are predicated). Kept for later versions until checked there.
    effects = tuple(o.id for o in g.ops if any(n in vocab.UNPREDICABLE_EFFECTS for n in o.ops))
    if effects:
        names = sorted({n for o in g.ops if o.id in effects for n in o.ops if n in vocab.UNPREDICABLE_EFFECTS})
        out.append(Constraint("last_stage", effects,
                              f'triton {triton_version}: "pipeliner doesn\'t know how to predicate this op" for '
                              f"{', '.join(names)} in an earlier stage than the last"))
    return tuple(out)


def _loaded(g: LoopGraph) -> tuple[str, ...]:
    """The compute an iteration's loads feed (in the iteration: the operands a dot's conversions make)."""
    loads = [o.id for o in g.ops if o.unit == "lsu"]
    seen: set[str] = set()
    todo = list(loads)
    while todo:
        for d in g.succs(todo.pop()):
            if d.distance == 0 and d.dst not in seen and d.dst not in loads:
                seen.add(d.dst)
                todo.append(d.dst)
    return tuple(o.id for o in g.ops if o.id in seen)


def check_realisable(g: LoopGraph, s: Schedule, triton_version: str | None = None) -> list[Constraint]:
    """The constraints ``s`` violates: a dot (or an op Triton cannot predicate) whose stage is before
    another compute op's."""
    start = s.start_map
    compute = [o.id for o in g.ops if not ahead(o)]
    last = max(start[v] // s.ii for v in compute) if compute else 0
    return [c for c in realisability_constraints(g, triton_version)
            if any(start[v] // s.ii < last for v in c.ops)]


# Shared memory kept out of the load buffers' budget: the tiles that live outside the ring (FA's Q
# tile, an epilogue's staging buffer) and the barriers.
RESERVED_SMEM = 27 * 1024


def load_buffer_budget(machine: Machine) -> int:
    """Bytes of shared memory the loop's load buffers may take on ``machine``."""
    return machine.smem_per_cta - RESERVED_SMEM


def unit_cycles(s: Schedule) -> float:
    """Machine cycles per schedule unit (the normalisation scale when the schedule records one)."""
    norm = s.get("normalization") or {}
    return float(norm.get("scale") or s.time_unit or 1.0)


def load_bytes(g: LoopGraph) -> int:
    """Shared-memory bytes one iteration's streaming loads land in."""
    return sum(o.smem or int(o.attr("bytes", 0) or 0) for o in g.ops if ahead(o))


def ahead(o: Op) -> bool:
    """Whether ``o`` is a load that runs ahead of the compute (stage 0): a streaming load, which no
    in-loop value or earlier store feeds. A load that one does is placed by its start, like compute."""
    return o.variable_latency and o.streaming


def load_distance(g: LoopGraph, s: Schedule, machine: Machine) -> int:
    """Stages the loads run ahead: (fixed latency + transfer time of all the loop's loads) over II,
    rounded up, at least 1, and at most what the load buffers' budget holds (d + 1 buffers per load)."""
    loads = [o for o in g.ops if ahead(o)]
    if not loads or s.ii <= 0:
        return 1
    nbytes = load_bytes(g)
    lat = machine.rate("global_latency") + nbytes / machine.rate("tma_bytes")
    d = max(1, math.ceil(lat / (s.ii * unit_cycles(s))))
    cap = max(1, load_buffer_budget(machine) // max(nbytes, 1) - 1)
    return min(d, cap)


def placement(g: LoopGraph, s: Schedule, machine: Machine, triton_version: str | None = None,
              distance: int | None = None) -> Placement:
    """Stage and cluster per node; projected onto what the installed Triton can compile.

    Examples
    --------
    >>> p = placement(graph, schedule, load_machine("h200"))   # doctest: +SKIP
    >>> p.stage_map["dot0_acc"], p.max_stage    # doctest: +SKIP
    (2, 2)
    """
    if s.status not in ("optimal", "feasible"):
        raise CompileError("no schedule to apply", where=g.name, expected="an optimal or feasible schedule",
                           found=s.status)
    start = s.start_map
    missing = [o.id for o in g.ops if o.id not in start]
    if missing:
        raise CompileError("schedule does not cover the graph", where=g.name, expected="a start for every node",
                           found="missing " + ", ".join(missing))
    d = load_distance(g, s, machine) if distance is None else distance
    budget, nbytes = load_buffer_budget(machine), load_bytes(g)
    if distance is not None and nbytes and (distance + 1) * nbytes > budget:
        raise CompileError("streaming depth does not fit shared memory", where=g.name,
                           expected=f"(depth + 1) x {nbytes // 1024} KB of load buffers <= {budget // 1024} KB",
                           found=f"depth {distance}: {(distance + 1) * nbytes // 1024} KB")
    compute = [o for o in g.ops if not ahead(o)]
    violated = tuple(check_realisable(g, s, triton_version))
    notes: list[str] = []
    if violated:
        # Everything in one stage, ordered by the schedule's start times: the cross-iteration overlap
        # of compute is what Triton cannot express here.
        raw = {o.id: 0 for o in compute}
        key = {o.id: start[o.id] for o in compute}
        split = sorted({start[o.id] // s.ii for o in compute})
        notes.append(f"compute spread over stages {split} needs a dot before the last stage; collapsed to one "
                     f"compute stage ({violated[0].reason})")
    else:
        raw = {o.id: start[o.id] // s.ii for o in compute}
        key = {o.id: start[o.id] % s.ii for o in compute}
    ranks = {t: i for i, t in enumerate(sorted(set(key.values())))}
    stage = {o.id: d + raw[o.id] for o in compute}
    cluster = {o.id: ranks[key[o.id]] for o in compute}
    load_cluster = len(ranks)
    for o in g.ops:
        if ahead(o):
            stage[o.id], cluster[o.id] = 0, load_cluster
    max_stage = max(stage.values(), default=0)
    p = Placement(tuple(stage.items()), tuple(cluster.items()), max_stage, d, bool(violated), violated,
                  tuple(notes))
    broken = broken_dependences(g, p)
    if broken:
        raise CompileError("the stages would break a dependence", where=g.name,
                           expected="every edge's source placed before its destination (stage, cluster, order)",
                           found="; ".join(broken[:3]))
    return p


def broken_dependences(g: LoopGraph, p: Placement) -> list[str]:
    """The edges of ``g`` that ``p`` runs in the wrong order. In the pipelined loop, the ops of
    iteration ``i`` at stage ``s`` run in step ``i + s``, within a step by cluster, then in program
    order; an edge of distance ``k`` needs its source's step and place before its destination's in
    iteration ``i + k``. Triton reorders nothing for a memory edge (no SSA value links the two), so
    this is the last check that a schedule did not silently break one. An SSA edge only needs its
stages in order (within a step Triton keeps a use after its definition).

    Examples
    --------
    >>> broken_dependences(graph, placement(graph, schedule, machine))   # doctest: +SKIP
    []
    """
    st, cl = p.stage_map, p.cluster_map
    order = {o.id: i for i, o in enumerate(g.ops)}
    out = []
    for d in g.deps:
        src = (st[d.src] - d.distance, cl[d.src], order[d.src])
        dst = (st[d.dst], cl[d.dst], order[d.dst])
        # An SSA use in the same step is ordered by Triton itself (an op never runs before what it
        # reads there); a memory edge, which no value links, must be ordered by the placement.
        if d.src != d.dst and (src >= dst if d.memory else src[0] > dst[0]):
            out.append(f"{d.src} (stage {st[d.src]}, cluster {cl[d.src]}) -> {d.dst} (stage {st[d.dst]}, "
                       f"cluster {cl[d.dst]}), distance {d.distance} ({d.value})")
    return out
