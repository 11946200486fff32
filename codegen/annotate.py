"""Apply a twill schedule to TTGIR: ``loop.stage`` / ``loop.cluster`` on the loop body's ops and
``tt.scheduled_max_stage`` on the loop, set right before Triton's pipeliner (the only point where
Triton 3.6 honours them, FINDINGS.md section 2), each op tagged ``twill.node`` with its graph node id.

Stage mapping: variable-latency loads run ahead (paper 5.3) by ``d`` stages, ``d`` the loads'
latency over the initiation interval rounded up; compute op v gets stage ``d + start[v] // II``.
Clusters order the body by modulo slot ``start[v] mod II``; the loads are issued last, for later
iterations. Triton 3.6's pipeliner cannot predicate a ``warp_group_dot`` (or ``tc_gen5_mma``) that
sits in an earlier stage than the last one (FINDINGS.md section 2): such a schedule is not realisable
there, and ``placement`` projects it onto the realisable set (all compute in one stage, ordered by
start time), recording what was given up.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

from codegen.text import body_ops, loop_span, set_int_attr, add_attrs, uses, _RESULT
from twill.errors import CompileError
from twill.graph.model import LoopGraph
from twill.schedule.model import Schedule

UNPREDICABLE = ("ttng.warp_group_dot", "ttng.tc_gen5_mma", "tt.dot")
LOAD_OPS = ("tt.load", "tt.descriptor_load", "tt.descriptor_gather", "ttng.async_tma_copy_global_to_local")


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
    if triton_version is None:
        import triton

        triton_version = triton.__version__
    major, minor = (int(x) for x in re.findall(r"\d+", triton_version)[:2])
    dots = tuple(o.id for o in g.ops if o.kind == "dot")
    if (major, minor) < (3, 9) and dots:
        return (Constraint("last_stage", dots,
                           f"triton {triton_version}: 'pipeliner doesn't know how to predicate this op' for a "
                           "warp_group_dot in an earlier stage than the last (FINDINGS.md section 2)"),)
    return ()


def check_realisable(g: LoopGraph, s: Schedule, triton_version: str | None = None) -> list[Constraint]:
    """The constraints ``s`` violates: a dot whose stage is before another compute op's."""
    start = s.start_map
    compute = [o.id for o in g.ops if not o.variable_latency]
    last = max(start[v] // s.ii for v in compute) if compute else 0
    return [c for c in realisability_constraints(g, triton_version)
            if any(start[v] // s.ii < last for v in c.ops)]


LOAD_LATENCY_CYCLES = 600.0   # h200.toml global_latency: the fixed part of a load's time
LOAD_BYTES_PER_CYCLE = 37.5   # h200.toml tma_bytes: one SM's share of TMA bandwidth
SMEM_BUDGET = 200 * 1024      # bytes of load buffers per CTA (of 227 KB), room left for Q / barriers


def unit_cycles(s: Schedule) -> float:
    """Machine cycles per schedule unit (the normalisation scale when the schedule records one)."""
    norm = s.get("normalization") or {}
    return float(norm.get("scale") or s.time_unit or 1.0)


def load_distance(g: LoopGraph, s: Schedule, latency_cycles: float = LOAD_LATENCY_CYCLES,
                  bytes_per_cycle: float = LOAD_BYTES_PER_CYCLE, smem_budget: int = SMEM_BUDGET) -> int:
    """Stages the loads run ahead: (fixed latency + transfer time of all the loop's loads) over II,
    rounded up, at least 1, and at most what ``smem_budget`` holds (d + 1 buffers per load)."""
    loads = [o for o in g.ops if o.variable_latency]
    if not loads or s.ii <= 0:
        return 1
    nbytes = sum(o.smem or int(o.attr("bytes", 0) or 0) for o in loads)
    lat = latency_cycles + nbytes / bytes_per_cycle
    d = max(1, math.ceil(lat / (s.ii * unit_cycles(s))))
    cap = max(1, smem_budget // max(nbytes, 1) - 1)
    return min(d, cap)


def placement(g: LoopGraph, s: Schedule, triton_version: str | None = None,
              distance: int | None = None) -> Placement:
    """Stage and cluster per node; projected onto what the installed Triton can compile.

    Examples
    --------
    >>> p = placement(graph, schedule)          # doctest: +SKIP
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
    d = load_distance(g, s) if distance is None else distance
    if distance is not None:
        loads = [o for o in g.ops if o.variable_latency]
        nbytes = sum(o.smem or int(o.attr("bytes", 0) or 0) for o in loads)
        if loads and (distance + 1) * nbytes > SMEM_BUDGET:
            raise CompileError("streaming depth does not fit shared memory", where=g.name,
                               expected=f"(depth + 1) x {nbytes // 1024} KB of load buffers <= {SMEM_BUDGET // 1024} KB",
                               found=f"depth {distance}: {(distance + 1) * nbytes // 1024} KB")
    compute = [o for o in g.ops if not o.variable_latency]
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
        if o.variable_latency:
            stage[o.id], cluster[o.id] = 0, load_cluster
    max_stage = max(stage.values(), default=0)
    return Placement(tuple(stage.items()), tuple(cluster.items()), max_stage, d, bool(violated), violated,
                     tuple(notes))


def _node_of_result(g: LoopGraph) -> dict[str, str]:
    out: dict[str, str] = {}
    for o in g.ops:
        for line in o.ir:
            m = _RESULT.match(line)
            if m:
                out[m.group(1)] = o.id
    return out


def apply(text: str, g: LoopGraph, p: Placement, marker: str = "") -> str:
    """``text`` with the placement written onto the loop's ops: ``loop.stage``, ``loop.cluster``,
    ``twill.node``, and ``tt.scheduled_max_stage`` on the loop. Ops no node owns (address
    arithmetic) take the earliest stage and cluster among their users in the body."""
    lines = text.splitlines()
    owner = _node_of_result(g)
    span = None
    for op in (o for o in _all_fors(lines)):
        body = body_ops(lines, op)
        if any(b.result in owner for b in body):
            span = op
            break
    if span is None:
        raise CompileError("schedule does not match the IR", where=g.name,
                           expected="a loop holding the graph's SSA names", found="none")
    body = [b for b in body_ops(lines, span) if b.name != "scf.yield"]
    st, cl = p.stage_map, p.cluster_map
    place: dict[int, tuple[int, int, str | None]] = {}
    for b in body:
        node = owner.get(b.result or "")
        if node is not None and g.op(node).variable_latency and b.name not in LOAD_OPS:
            node = None   # the shared-memory copy of a loaded tile goes with its consumer (Triton's rule)
        if node is not None:
            place[b.first] = (st[node], cl[node], node)
    # Unowned ops: earliest user's stage/cluster, iterated backwards so chains resolve.
    results = {b.first: _results(lines[b.first]) for b in body}
    for _ in range(len(body)):
        changed = False
        for b in reversed(body):
            if b.first in place and place[b.first][2] is not None:
                continue
            users = [place[u.first] for u in body if u.first in place and u is not b
                     and results[b.first] & _op_uses(lines, u)]
            new = (min(x[0] for x in users), min(x[1] for x in users), None) if users else \
                (0, max(cl.values(), default=0), None)
            if place.get(b.first) != new:
                place[b.first], changed = new, True
        if not changed:
            break
    n_owned = sum(1 for v in place.values() if v[2] is not None)
    if n_owned == 0:
        raise CompileError("schedule does not match the IR", where=g.name,
                           expected="loop ops with the graph's SSA names", found="none matched")
    for b in body:
        stage, cluster, node = place[b.first]
        line = set_int_attr(lines[b.attr_line], "loop.stage", stage)
        line = set_int_attr(line, "loop.cluster", cluster)
        if node is not None and "twill.node" not in line:
            line = add_attrs(line, f'twill.node = "{node}"')
        lines[b.attr_line] = line
    lines[span[1]] = set_int_attr(lines[span[1]], "tt.scheduled_max_stage", p.max_stage)
    return "\n".join(lines) + "\n"


def _all_fors(lines: list[str]) -> list[tuple[int, int]]:
    from codegen.text import ops_of

    return [(o.first, o.attr_line) for o in ops_of(lines) if o.name == "scf.for"]


def _results(line: str) -> set[str]:
    m = re.match(r"^\s*((?:%[\w$.\-]+(?::\d+)?\s*,?\s*)+)=", line)
    if not m:
        return set()
    return {r.split(":")[0] for r in re.findall(r"%[\w$.\-]+(?::\d+)?", m.group(1))}


def _op_uses(lines: list[str], op: Any) -> set[str]:
    out: set[str] = set()
    for i in range(op.first, op.attr_line + 1):
        out |= uses(lines[i])
    return {u.split("#")[0] for u in out}


def annotate_ttgir(pre_ttgir: str, g: LoopGraph, s: Schedule, triton_version: str | None = None,
                   distance: int | None = None) -> str:
    """The pre-pipeline TTGIR with the (realisable) schedule written on the loop: the file users read
    and ``codegen.compile`` compiles. A header comment records the projection, if any. ``distance``
    overrides how many stages the streaming loads run ahead (the exposed depth of paper 5.3, a
    tuning parameter: default from ``load_distance``'s latency model)."""
    p = placement(g, s, triton_version, distance=distance)
    text = apply(pre_ttgir, g, p)
    head = [f"// twill schedule: II={s.ii} L={s.length} status={s.status} max_stage={p.max_stage} "
            f"load_distance={p.load_distance}"]
    head += [f"// twill: {n}" for n in p.notes]
    return "\n".join(head) + "\n" + text


def read_annotation(text: str) -> dict[str, Any]:
    """The schedule of an annotated TTGIR: ``{"ops": [(op name, stage, cluster), ...] in body order,
    "max_stage": n, "partitions": codegen.warps.read_partitions(text), "private": bool}``; Proton
    records, the yield and per-partition clones of loads (``private``: there are some) are left out."""
    lines = text.splitlines()
    for span in _all_fors(lines):
        if "tt.scheduled_max_stage" not in lines[span[1]]:
            continue
        m = re.search(r"tt\.scheduled_max_stage = (\d+)", lines[span[1]])
        ops, private = [], False
        for b in body_ops(lines, span):
            if "twill.private" in lines[b.attr_line]:   # a per-partition clone (codegen.warps.privatize)
                private = True
                continue
            if b.name in _SKIP:
                continue
            a = lines[b.attr_line]
            ms, mc = re.search(r"loop\.stage = (\d+)", a), re.search(r"loop\.cluster = (\d+)", a)
            if not (ms and mc):
                raise CompileError("not an annotated TTGIR", where=f"line {b.first + 1}",
                                   expected="loop.stage and loop.cluster on every loop op", found=b.name)
            ops.append((b.name, int(ms.group(1)), int(mc.group(1))))
        from codegen.warps import read_partitions

        return {"ops": ops, "max_stage": int(m.group(1)) if m else 0, "partitions": read_partitions(text),
                "private": private}
    raise CompileError("not an annotated TTGIR", expected="a loop with tt.scheduled_max_stage", found="none")


_SKIP = ("scf.yield", "proton.record")


def apply_annotation(text: str, ann: dict[str, Any]) -> str:
    """Copy the stages and clusters (and partitions, if any) read by ``read_annotation`` onto the module
    text right before the pipeliner, op by op in body order (the op names must agree). Proton records take the cluster of
    the op they precede (start) or follow (end), in the last stage (Triton 3.6 cannot predicate them)."""
    lines = text.splitlines()
    want = ann["ops"]
    target, found = None, []
    for span in _all_fors(lines):
        body = [b for b in body_ops(lines, span) if b.name not in _SKIP]
        if [b.name for b in body] == [w[0] for w in want]:
            target = span
            break
        found.append(f"{len(body)} ops")
    if target is None:
        raise CompileError("annotated TTGIR does not match the kernel", where="loop body",
                           expected=f"{len(want)} ops in the annotated order", found=", ".join(found) or "no loop")
    body = [b for b in body_ops(lines, target) if b.name != "scf.yield"]
    k, opened = 0, {}
    for i, b in enumerate(body):
        if b.name == "proton.record":
            m = re.search(r'proton\.record (start|end) "([^"]+)"', lines[b.first])
            name = m.group(2) if m else ""
            if m and m.group(1) == "start":
                opened[name] = want[min(k, len(want) - 1)][2]
            # a record cannot be predicated either (3.6): last stage, the cluster of its region's start
            ref = ("proton.record", ann["max_stage"], opened.get(name, 0))
        else:
            ref = want[k]
            k += 1
        line = set_int_attr(lines[b.attr_line], "loop.stage", ref[1])
        lines[b.attr_line] = set_int_attr(line, "loop.cluster", ref[2])
    lines[target[1]] = set_int_attr(lines[target[1]], "tt.scheduled_max_stage", ann["max_stage"])
    if ann.get("partitions"):   # a warp-specialized annotation (codegen.warps)
        from codegen.warps import write_partitions

        write_partitions(lines, target, body, *ann["partitions"])
        if ann.get("private"):   # tiles loaded once per reading partition, as in the annotation
            from codegen.warps import privatize

            lines, _ = privatize(lines, target)
    return "\n".join(lines) + "\n"
