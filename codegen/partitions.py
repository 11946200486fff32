"""A joint schedule's warp groups as Triton partitions, written on the annotated loop's text:
``ttg.partition`` on every op of the loop body, ``ttg.partition.stages`` and
``ttg.warp_specialize.tag`` on the ``scf.for``.

Partition numbering. Triton's partition 0 is the default partition: the kernel's own ``num_warps``
warps, which also run the code before and after the loop and return the loop's results. Twill's
compute groups take partitions 0..W'-1 in group order (W' the compute groups the schedule uses),
so the first compute group is the default partition, as in Triton's own Blackwell assignment
(default = softmax/correction, then MMA, then loads). The variable-latency group (the loads, the
producer) takes the next partition, and Blackwell's one-warp issue group the one after it. The
producer as partition 0 was tried and fails: on sm_90 the GEMM's MMA partition is then given too few
registers ("ptxas fatal: Insufficient registers (128) to compile instruction").

Ops no graph node owns (index arithmetic, views, the loop counter's increment) are computed by
every partition that uses them: their partition set is the union of their users' (through the
``scf.yield`` to the next iteration's users), which Triton clones into each partition. An op no
body op uses (a value only the code after the loop reads, a side effect) goes to the default
partition. Ops nested in a region op (a reduction's combiner) take the region op's partition.
A loaded tile's ``local_alloc`` goes with its load (the producer writes shared memory); a view of
shared memory (``memdesc_trans``) is, like index arithmetic, computed by every partition that uses
it (Triton 3.6 passes only tensors between partitions: "non-root partition #0 has direct SSA
consumer" otherwise).

Partition stages (``ttg.partition.stages``, how far apart Triton buffers the values crossing
partitions) are the earliest pipeline stage of each partition's ops: loads 0, compute the loads'
distance ahead.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from codegen.annotate import MAX_STAGE
from twill.errors import CompileError
from twill.graph.locate import node_of_value
from twill.graph.model import LoopGraph
from twill.ir import ttgir, vocab
from twill.schedule.model import Schedule
from twill.util import clip

PARTITION = "ttg.partition"
STAGES = "ttg.partition.stages"
TAG = "ttg.warp_specialize.tag"
WS_HINT = "tt.warp_specialize"   # tl.range(warp_specialize=True): the loops Triton's passes act on
PARTITION_RE = re.compile(r"ttg\.partition = array<i32:\s*([\d,\s]+)>")

@dataclass(frozen=True)
class Partitions:
    """Triton partition of every graph node, each partition's stage and what it holds.

    ``group`` maps each twill warp group the schedule uses to its partition; ``roles`` names each
    partition (``"compute group 0 (default)"``, ``"loads (group 2)"``).
    """

    node: tuple[tuple[str, int], ...]
    stages: tuple[int, ...]
    roles: tuple[str, ...]
    group: tuple[tuple[int, int], ...]
    warps_per_group: int | None = None

    def __post_init__(self) -> None:
        n = len(self.stages)
        if n < 2 or len(self.roles) != n:
            raise ValueError(f"partitions: expected >= 2 stages and one role each, found {self.stages} {self.roles}")
        bad = [(v, p) for v, p in self.node if not 0 <= p < n]
        if bad:
            raise ValueError(f"partitions: node partitions out of range 0..{n - 1}: {bad}")

    @property
    def node_map(self) -> dict[str, int]:
        return dict(self.node)

    @property
    def count(self) -> int:
        return len(self.stages)

    def to_dict(self) -> dict[str, Any]:
        return {"partition": dict(self.node), "stages": list(self.stages), "roles": list(self.roles),
                "group_to_partition": {str(g): p for g, p in self.group}, "warps_per_group": self.warps_per_group}

    def describe(self) -> str:
        return "; ".join(f"partition {i} = {r}" for i, r in enumerate(self.roles))


def partitions(g: LoopGraph, s: Schedule, stage: dict[str, int]) -> Partitions | None:
    """Triton partitions of a joint schedule's warp map, or None when it has fewer than two groups.

    ``stage`` is the pipeline stage per node (``codegen.placement.placement(...).stage_map``).

    Examples
    --------
    >>> p = partitions(graph, joint, placement(graph, joint, machine).stage_map)   # doctest: +SKIP
    >>> p.roles                                                            # doctest: +SKIP
    ('compute group 0 (default)', 'compute group 1', 'loads (group 2)')
    """
    warp = s.warp_map
    if not warp:
        return None
    missing = [o.id for o in g.ops if o.id not in warp]
    if missing:
        raise CompileError("warp map does not cover the graph", where=g.name, expected="a group for every node",
                           found="missing " + ", ".join(missing))
    info = s.get("warp_groups") or {}
    vl, issue = info.get("variable_latency"), info.get("issue")
    if vl is None:   # a schedule without the record: the group holding exactly the loads
        vl_groups = {warp[o.id] for o in g.ops if o.variable_latency}
        if len(vl_groups) == 1 and not any(warp[o.id] in vl_groups for o in g.ops if not o.variable_latency):
            vl = vl_groups.pop()
    used = sorted(set(warp.values()))
    if len(used) < 2:
        return None
    specials = [x for x in (vl, issue) if x is not None]
    order = [x for x in used if x not in specials] + [x for x in specials if x in used]
    part = {grp: i for i, grp in enumerate(order)}
    roles = []
    for grp in order:
        if grp == vl:
            roles.append(f"loads (group {grp})")
        elif grp == issue:
            roles.append(f"MMA issue (group {grp})")
        else:
            roles.append(f"compute group {grp}" + (" (default)" if part[grp] == 0 else ""))
    node = {v: part[w] for v, w in warp.items()}
    stages = [min((stage.get(v, 0) for v, p in node.items() if p == i), default=0) for i in range(len(order))]
    wpg = info.get("warps_per_group")
    return Partitions(tuple(node.items()), tuple(stages), tuple(roles), tuple(part.items()),
                      int(wpg) if wpg else None)


def _array(ids: set[int] | list[int]) -> str:
    return "array<i32: " + ", ".join(str(i) for i in sorted(ids)) + ">"


def _iter_args(line: str) -> list[str]:
    m = re.search(r"iter_args\((.*?)\)\s*->", line)
    return re.findall(r"(%[\w$.\-]+) = ", m.group(1)) if m else []


def annotated_loop(lines: list[str]) -> tuple[int, int]:
    """The span of the loop an annotation scheduled (the one carrying ``tt.scheduled_max_stage``)."""
    for op in ttgir.loops(lines):
        if MAX_STAGE in lines[op.attr_line]:
            return op.span
    raise CompileError("not an annotated TTGIR", expected=f"a loop with {MAX_STAGE}", found="none")


def assign(lines: list[str], span: tuple[int, int], owned: dict[int, int]) -> dict[int, set[int]]:
    """Partition set of every top-level op of the loop at ``span`` (keyed by its first line), from
    the partitions of the owned ops (``owned``: first line -> partition). Unowned ops take the union
    of their users' sets, through the yield to the next iteration; unused ones the default (0)."""
    body = ttgir.region_ops(lines, span)
    ops = [b for b in body if b.name != vocab.YIELD]
    yld = next((b for b in body if b.name == vocab.YIELD), None)
    carried = _iter_args(lines[span[0]])
    yielded = re.findall(r"%[\w$.\-]+(?:#\d+)?", lines[yld.first].split(":")[0]) if yld else []
    # a yielded value is used, in the next iteration, by the users of its iter_arg
    next_iter = {y.split("#")[0]: carried[k] for k, y in enumerate(yielded) if k < len(carried)}
    results = {b.first: ttgir.result_names(lines[b.first]) for b in ops}
    used = {b.first: ttgir.op_uses(lines, b) for b in ops}
    users: dict[int, list[int]] = {}
    for b in ops:
        names = set(results[b.first])
        names |= {next_iter[r] for r in results[b.first] if r in next_iter}
        users[b.first] = [u.first for u in ops if u is not b and names & used[u.first]]
    out: dict[int, set[int]] = {k: {p} for k, p in owned.items()}
    for _ in range(len(ops) + 1):
        changed = False
        for b in reversed(ops):
            if b.first in owned:
                continue
            new: set[int] = set().union(*(out.get(u, set()) for u in users[b.first]))
            if new != out.get(b.first, set()):
                out[b.first], changed = new, True
        if not changed:
            break
    for b in ops:
        if not out.get(b.first):
            out[b.first] = {0}
    return out


def _partition_sets(lines: list[str], g: LoopGraph, parts: Partitions) -> tuple[tuple[int, int], dict[int, set[int]]]:
    """The scheduled loop's span and the partition set of each of its top-level ops (first line)."""
    span = annotated_loop(lines)
    owner = node_of_value(g)
    node_part = parts.node_map
    owned: dict[int, int] = {}
    for b in ttgir.region_ops(lines, span):
        node = owner.get(b.result or "")
        if node is None or b.name == vocab.YIELD:
            continue
        if (g.op(node).variable_latency and b.name not in vocab.LOADS | {vocab.LOCAL_ALLOC}) or b.name in vocab.SMEM_VIEWS:
            continue   # index arithmetic of a load node, a view: computed where it is used
        owned[b.first] = node_part[node]
    if not owned:
        raise CompileError("schedule does not match the IR", where=g.name,
                           expected="loop ops with the graph's SSA names", found="none matched")
    return span, assign(lines, span, owned)


def add_partitions(annotated: str, g: LoopGraph, parts: Partitions) -> str:
    """The annotated TTGIR with ``ttg.partition`` on every op of the scheduled loop's body (nested
    ops included), and ``ttg.partition.stages`` / ``ttg.warp_specialize.tag`` / ``tt.warp_specialize``
    on the loop (the last is what ``tl.range(warp_specialize=True)`` sets: Triton's aref insertion
    acts only on loops that carry it)."""
    lines = annotated.splitlines()
    span, sets = _partition_sets(lines, g, parts)
    for b in ttgir.region_ops(lines, span):
        if b.name == vocab.YIELD:
            continue
        attr = f"{PARTITION} = {_array(sets[b.first])}"
        for nested in ttgir.nested_ops(lines, b):
            lines[nested.attr_line] = ttgir.add_attrs(lines[nested.attr_line], attr)
        lines[b.attr_line] = ttgir.add_attrs(lines[b.attr_line], attr)
    stages = ", ".join(f"{x} : i32" for x in parts.stages)
    lines[span[1]] = ttgir.add_attrs(lines[span[1]], f"{STAGES} = [{stages}], {TAG} = 0 : i32" +
                               ("" if WS_HINT in lines[span[1]] else f", {WS_HINT}"))
    return "\n".join(lines) + "\n"


def _buffer_users(lines: list[str], body: list[Any], uses_of: dict[int, set[str]],
                  alloc: Any) -> tuple[list[Any], list[Any]]:
    """(the views of ``alloc``'s buffer, the ops that read it through them or directly), in body order."""
    views: list[Any] = []
    readers: list[Any] = []
    frontier = set(ttgir.result_names(lines[alloc.first]))
    while frontier:
        name = frontier.pop()
        for u in body:
            if u is alloc or name not in uses_of[u.first]:
                continue
            if u.name in vocab.SMEM_VIEWS:
                if u not in views:
                    views.append(u)
                    frontier |= ttgir.result_names(lines[u.first])
            elif u not in readers:
                readers.append(u)
    return views, readers


def shared_tiles(annotated: str, g: LoopGraph, parts: Partitions) -> list[tuple[str, list[int]]]:
    """Loaded tiles read by more than one partition besides the loader's, as (load node, the
    partitions reading it): in Triton 3.6 such a module fails in ``NVWSInsertAref`` with no
    diagnostic (found by compiling: FA's V tile read by both sub-tiles' PV dots in two partitions
    fails, each tile read by one partition compiles)."""
    lines = annotated.splitlines()
    span, sets = _partition_sets(lines, g, parts)
    owner = node_of_value(g)
    body = [b for b in ttgir.region_ops(lines, span) if b.name != vocab.YIELD]
    used = {b.first: ttgir.op_uses(lines, b) for b in body}
    out = []
    for b in body:
        node = owner.get(b.result or "")
        if b.name != vocab.LOCAL_ALLOC or node is None or not g.op(node).variable_latency:
            continue
        readers = set().union(*(sets[u.first] for u in _buffer_users(lines, body, used, b)[1])) - sets[b.first]
        if len(readers) > 1:
            out.append((node, sorted(readers)))
    return out


PRIVATE = "twill.private"   # on a load / local_alloc / view cloned for one reading partition


def _partition_of(line: str) -> set[int] | None:
    m = PARTITION_RE.search(line)
    return {int(x) for x in m.group(1).split(",")} if m else None


def privatize(lines: list[str], span: tuple[int, int]) -> tuple[list[str], list[tuple[str, list[int]]]]:
    """Load a tile once per reading partition: for each ``ttg.local_alloc`` of a
    ``tt.descriptor_load`` in the loop at ``span`` whose readers (through views of the buffer) sit in
    two or more partitions besides the loader's, clone the load, the alloc and the views for every
    reading partition but the lowest, and point that partition's readers at the clone.

    Triton 3.6's ``NVWSInsertAref`` passes a loaded tile to one consumer partition only (found by
    compiling: it rejects a tile read by two partitions; ``tests/unit/test_codegen_ws.py``), so FA3's ping-pong, where both sub-tiles read each K and V tile,
    does not compile as written; loaded once per sub-tile it does, at the price of a second
    shared-memory buffer per tile and a second TMA copy (from L2). The clones carry ``twill.private``;
    ``read_annotation`` leaves them out and ``apply_annotation`` redoes this on the live module, so the
    edit is a deterministic function of the partitions. Returns the new lines and, per privatized
    tile, (the load's result, the partitions it is now loaded for).
    """
    body = [b for b in ttgir.region_ops(lines, span) if b.name != vocab.YIELD]
    by_result = {r: b for b in body for r in ttgir.result_names(lines[b.first])}
    uses_of = {b.first: ttgir.op_uses(lines, b) for b in body}
    after: dict[int, list[str]] = {}      # line index -> clone lines to insert after it
    edits: dict[int, str] = {}
    done = []
    for alloc in body:
        if alloc.name != vocab.LOCAL_ALLOC or alloc.first != alloc.attr_line:
            continue
        src = [u for u in uses_of[alloc.first] if u in by_result]
        load = by_result.get(src[0]) if len(src) == 1 else None
        if load is None or load.name != "tt.descriptor_load" or load.first != load.attr_line:
            continue
        loader = _partition_of(lines[alloc.attr_line])
        views, readers = _buffer_users(lines, body, uses_of, alloc)
        sets = [_partition_of(lines[r.attr_line]) for r in readers]
        if loader is None or any(x is None or len(x) != 1 for x in sets):
            continue
        reading = sorted({next(iter(x)) for x in sets} - loader)
        if len(reading) < 2:
            continue
        for r in reading[1:]:
            names = {n: f"{n}_tw{r}" for op in [load, alloc] + views for n in ttgir.result_names(lines[op.first])}
            mark = f"{PRIVATE} = {r} : i32"
            for op in (load, alloc):
                after.setdefault(op.first, []).append(ttgir.add_attrs(ttgir.rename(lines[op.first], names), mark))
            for v in views:
                clone = _set_partition(ttgir.rename(lines[v.first], names), f"{PARTITION} = {_array([r])}")
                after.setdefault(v.first, []).append(ttgir.add_attrs(clone, mark))
            for rd, x in zip(readers, sets):
                if x == {r}:
                    for i in range(rd.first, rd.attr_line + 1):
                        edits[i] = ttgir.rename(edits.get(i, lines[i]), names)
        for v in views:   # the original views now serve the lowest reader only (and any other user)
            own = (_partition_of(lines[v.attr_line]) or set()) - set(reading[1:])
            edits[v.attr_line] = _set_partition(edits.get(v.attr_line, lines[v.attr_line]),
                                                f"{PARTITION} = {_array(own or {reading[0]})}")
        node = re.search(r'twill\.node = "([^"]+)"', lines[load.attr_line])
        done.append((node.group(1) if node else load.result or "?", reading))
    out: list[str] = []
    for i, line in enumerate(lines):
        out.append(edits.get(i, line))
        out += after.get(i, [])
    return out, done


def read_partitions(annotated: str) -> tuple[list[list[int] | None], list[int]] | None:
    """The ``ttg.partition`` of each top-level op of the scheduled loop (body order, yield and
    Proton records left out) and the loop's partition stages; None when the file has none."""
    lines = annotated.splitlines()
    span = annotated_loop(lines)
    m = re.search(r"ttg\.partition\.stages = \[([^\]]*)\]", lines[span[1]])
    if not m:
        return None
    stages = [int(x) for x in re.findall(r"(-?\d+) : i32", m.group(1))]
    out: list[list[int] | None] = []
    for b in ttgir.region_ops(lines, span):
        if b.name in (vocab.YIELD, vocab.PROTON_RECORD) or PRIVATE in lines[b.attr_line]:
            continue
        mp = PARTITION_RE.search(lines[b.attr_line])
        out.append([int(x) for x in mp.group(1).split(",")] if mp else None)
    return out, stages


def write_partitions(lines: list[str], span: tuple[int, int], body: list[Any],
                     per_op: list[list[int] | None], stages: list[int]) -> None:
    """Copy ``read_partitions``' result onto the loop at ``span`` of ``lines`` (in place); ``body``
    is its top-level ops in body order, the yield and Proton records left out (records go to the
    default partition)."""
    k = 0
    for b in body:
        if b.name == vocab.PROTON_RECORD:
            ids: list[int] = [0]
        else:
            ids = per_op[k] or [0]
            k += 1
        attr = f"{PARTITION} = {_array(ids)}"
        for nested in ttgir.nested_ops(lines, b):
            lines[nested.attr_line] = _set_partition(lines[nested.attr_line], attr)
        lines[b.attr_line] = _set_partition(lines[b.attr_line], attr)
    st = ", ".join(f"{x} : i32" for x in stages)
    if STAGES in lines[span[1]]:
        raise CompileError("the loop is warp-specialized already", where="scf.for",
                           expected=f"no {STAGES} before twill's", found=clip(lines[span[1]].strip(), 120))
    lines[span[1]] = ttgir.add_attrs(lines[span[1]], f"{STAGES} = [{st}], {TAG} = 0 : i32" +
                               ("" if WS_HINT in lines[span[1]] else f", {WS_HINT}"))


def _set_partition(line: str, attr: str) -> str:
    if PARTITION_RE.search(line):
        return PARTITION_RE.sub(attr, line, count=1)
    return ttgir.add_attrs(line, attr)


def warp_specialized(annotated: str) -> bool:
    """Whether an annotated TTGIR carries a warp assignment (``ttg.partition.stages`` on its loop)."""
    return STAGES in annotated
