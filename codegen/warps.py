"""Warp specialization of the annotated loop: twill's warp groups become Triton partitions
(``ttg.partition`` on every op of the loop body, ``ttg.partition.stages`` and
``ttg.warp_specialize.tag`` on the ``scf.for``), checked by compiling, with a fall back to the
stages-only annotation when Triton rejects them (FINDINGS.md section 2).

Partition numbering. Triton's partition 0 is the default partition: the kernel's own ``num_warps``
warps, which also run the code before and after the loop and return the loop's results. Twill's
compute groups take partitions 0..W'-1 in group order (W' the compute groups the schedule uses),
so the first compute group is the default partition, as in Triton's own Blackwell assignment
(default = softmax/correction, then MMA, then loads). The variable-latency group (the loads, the
producer) takes the next partition, and Blackwell's one-warp issue group the one after it. The
producer as partition 0 was tried and fails: on sm_90 the GEMM's MMA partition is then given too few
registers ("ptxas fatal: Insufficient registers (128) to compile instruction").

What Triton 3.6 does with them (found by compiling offline and running on the H200,
bench/results/NOTES.md runs 6-15): it rejects a loaded tile read by two partitions (FA3's ping-pong,
sub-tile i on compute group i: ``NVWSInsertAref`` fails without a diagnostic); its sm_90 wgmma
pipeliner never returns on a loop with dots in two partitions, so ``codegen.compile.warp_route``
skips it there (``annotate`` still compiles in a child process with a time limit); on sm_90 a
lone compute partition beside the loads computes wrong results pipelined and runs at 0.25x
unpipelined; and every partition gets the kernel's ``num_warps``.

Realisability, as ``codegen.annotate`` projects stages, in this order: on sm_90 a partitioning with
one compute partition, or with warp groups narrower than ``num_warps``, is not written; a loaded tile
read by several partitions is loaded once per reading partition (``privatize``); the buffers between
partitions are made shallower until they fit shared memory (``fitting_depth``, the launch's
``num_stages``); failing that, the groups reading a common tile are merged into one partition; failing
that, the stages-only annotation is written. The file's header says which, and why.

Ops no graph node owns (index arithmetic, views, the loop counter's increment) are computed by
every partition that uses them: their partition set is the union of their users' (through the
``scf.yield`` to the next iteration's users), which Triton clones into each partition. An op no
body op uses (a value only the code after the loop reads, a side effect) goes to the default
partition. Ops nested in a region op (a reduction's combiner) take the region op's partition.
A loaded tile's ``local_alloc`` goes with its load (the producer writes shared memory); a view of
shared memory (``memdesc_trans``) is, like index arithmetic, computed by every partition that uses
it (Triton 3.6 passes only tensors between partitions: "non-root partition #0 has direct SSA
consumer" otherwise).

Warps per partition are Triton's to derive: ``partition-loops`` gives every partition the
kernel's ``num_warps`` and ``optimize-partition-warps`` shrinks the non-default ones by register
need; Triton 3.6 reads no per-partition warp count from the loop. The schedule's
``warps_per_group`` is recorded in the header only.

Partition stages (``ttg.partition.stages``, how far apart Triton buffers the values crossing
partitions) are the earliest pipeline stage of each partition's ops: loads 0, compute the loads'
distance ahead.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from codegen.annotate import _all_fors, _node_of_result, _op_uses, _results
from codegen.text import add_attrs, body_ops, ops_of
from twill.errors import CompileError, TwillError
from twill.graph.model import LoopGraph
from twill.schedule.model import Schedule

PARTITION = "ttg.partition"
STAGES = "ttg.partition.stages"
TAG = "ttg.warp_specialize.tag"
WS_HINT = "tt.warp_specialize"   # tl.range(warp_specialize=True): the loops Triton's passes act on
_PARTITION_RE = re.compile(r"ttg\.partition = array<i32:\s*([\d,\s]+)>")
_LOOP_MARK = "tt.scheduled_max_stage"
_LOAD_OPS = ("tt.descriptor_load", "tt.descriptor_gather", "tt.load", "ttg.local_alloc")
# Views of shared memory: no work, and Triton passes only tensors between partitions, so a view is
# computed in every partition that uses it (the transposed K tile both sub-tiles' QK dots read).
VIEW_OPS = ("ttg.memdesc_trans", "ttg.memdesc_reshape", "ttg.memdesc_index", "ttg.memdesc_subslice",
            "ttg.memdesc_reinterpret", "ttg.memdesc_subview")


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

    ``stage`` is the pipeline stage per node (``codegen.annotate.placement(...).stage_map``).

    Examples
    --------
    >>> p = partitions(graph, joint, placement(graph, joint).stage_map)   # doctest: +SKIP
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


def _loop(lines: list[str]) -> tuple[int, int]:
    for span in _all_fors(lines):
        if _LOOP_MARK in lines[span[1]]:
            return span
    raise CompileError("not an annotated TTGIR", expected=f"a loop with {_LOOP_MARK}", found="none")


def assign(lines: list[str], span: tuple[int, int], owned: dict[int, int]) -> dict[int, set[int]]:
    """Partition set of every top-level op of the loop at ``span`` (keyed by its first line), from
    the partitions of the owned ops (``owned``: first line -> partition). Unowned ops take the union
    of their users' sets, through the yield to the next iteration; unused ones the default (0)."""
    body = body_ops(lines, span)
    ops = [b for b in body if b.name != "scf.yield"]
    yld = next((b for b in body if b.name == "scf.yield"), None)
    carried = _iter_args(lines[span[0]])
    yielded = re.findall(r"%[\w$.\-]+(?:#\d+)?", lines[yld.first].split(":")[0]) if yld else []
    # a yielded value is used, in the next iteration, by the users of its iter_arg
    next_iter = {y.split("#")[0]: carried[k] for k, y in enumerate(yielded) if k < len(carried)}
    results = {b.first: _results(lines[b.first]) for b in ops}
    used = {b.first: _op_uses(lines, b) for b in ops}
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
    span = _loop(lines)
    owner = _node_of_result(g)
    node_part = parts.node_map
    owned: dict[int, int] = {}
    for b in body_ops(lines, span):
        node = owner.get(b.result or "")
        if node is None or b.name == "scf.yield":
            continue
        if (g.op(node).variable_latency and b.name not in _LOAD_OPS) or b.name in VIEW_OPS:
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
    for b in body_ops(lines, span):
        if b.name == "scf.yield":
            continue
        attr = f"{PARTITION} = {_array(sets[b.first])}"
        for nested in ops_of(lines, b.first + 1, b.attr_line):
            lines[nested.attr_line] = add_attrs(lines[nested.attr_line], attr)
        lines[b.attr_line] = add_attrs(lines[b.attr_line], attr)
    stages = ", ".join(f"{x} : i32" for x in parts.stages)
    lines[span[1]] = add_attrs(lines[span[1]], f"{STAGES} = [{stages}], {TAG} = 0 : i32" +
                               ("" if WS_HINT in lines[span[1]] else f", {WS_HINT}"))
    return "\n".join(lines) + "\n"


def _buffer_users(lines: list[str], body: list[Any], uses_of: dict[int, set[str]],
                  alloc: Any) -> tuple[list[Any], list[Any]]:
    """(the views of ``alloc``'s buffer, the ops that read it through them or directly), in body order."""
    views: list[Any] = []
    readers: list[Any] = []
    frontier = set(_results(lines[alloc.first]))
    while frontier:
        name = frontier.pop()
        for u in body:
            if u is alloc or name not in uses_of[u.first]:
                continue
            if u.name in VIEW_OPS:
                if u not in views:
                    views.append(u)
                    frontier |= _results(lines[u.first])
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
    owner = _node_of_result(g)
    body = [b for b in body_ops(lines, span) if b.name != "scf.yield"]
    used = {b.first: _op_uses(lines, b) for b in body}
    out = []
    for b in body:
        node = owner.get(b.result or "")
        if b.name != "ttg.local_alloc" or node is None or not g.op(node).variable_latency:
            continue
        readers = set().union(*(sets[u.first] for u in _buffer_users(lines, body, used, b)[1])) - sets[b.first]
        if len(readers) > 1:
            out.append((node, sorted(readers)))
    return out


PRIVATE = "twill.private"   # on a load / local_alloc / view cloned for one reading partition
_NAME = re.compile(r"%[\w$.\-]+")


def _partition_of(line: str) -> set[int] | None:
    m = _PARTITION_RE.search(line)
    return {int(x) for x in m.group(1).split(",")} if m else None


def _rename(line: str, names: dict[str, str]) -> str:
    return _NAME.sub(lambda m: names.get(m.group(0), m.group(0)), line)


def privatize(lines: list[str], span: tuple[int, int]) -> tuple[list[str], list[tuple[str, list[int]]]]:
    """Load a tile once per reading partition: for each ``ttg.local_alloc`` of a
    ``tt.descriptor_load`` in the loop at ``span`` whose readers (through views of the buffer) sit in
    two or more partitions besides the loader's, clone the load, the alloc and the views for every
    reading partition but the lowest, and point that partition's readers at the clone.

    Triton 3.6's ``NVWSInsertAref`` passes a loaded tile to one consumer partition only (FINDINGS.md
    section 2; found by compiling), so FA3's ping-pong, where both sub-tiles read each K and V tile,
    does not compile as written; loaded once per sub-tile it does, at the price of a second
    shared-memory buffer per tile and a second TMA copy (from L2). The clones carry ``twill.private``;
    ``read_annotation`` leaves them out and ``apply_annotation`` redoes this on the live module, so the
    edit is a deterministic function of the partitions. Returns the new lines and, per privatized
    tile, (the load's result, the partitions it is now loaded for).
    """
    body = [b for b in body_ops(lines, span) if b.name != "scf.yield"]
    by_result = {r: b for b in body for r in _results(lines[b.first])}
    uses_of = {b.first: _op_uses(lines, b) for b in body}
    after: dict[int, list[str]] = {}      # line index -> clone lines to insert after it
    edits: dict[int, str] = {}
    done = []
    for alloc in body:
        if alloc.name != "ttg.local_alloc" or alloc.first != alloc.attr_line:
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
            names = {n: f"{n}_tw{r}" for op in [load, alloc] + views for n in _results(lines[op.first])}
            mark = f"{PRIVATE} = {r} : i32"
            for op in (load, alloc):
                after.setdefault(op.first, []).append(add_attrs(_rename(lines[op.first], names), mark))
            for v in views:
                clone = _set_partition(_rename(lines[v.first], names), f"{PARTITION} = {_array([r])}")
                after.setdefault(v.first, []).append(add_attrs(clone, mark))
            for rd, x in zip(readers, sets):
                if x == {r}:
                    for i in range(rd.first, rd.attr_line + 1):
                        edits[i] = _rename(edits.get(i, lines[i]), names)
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
    span = _loop(lines)
    m = re.search(r"ttg\.partition\.stages = \[([^\]]*)\]", lines[span[1]])
    if not m:
        return None
    stages = [int(x) for x in re.findall(r"(-?\d+) : i32", m.group(1))]
    out: list[list[int] | None] = []
    for b in body_ops(lines, span):
        if b.name in ("scf.yield", "proton.record") or PRIVATE in lines[b.attr_line]:
            continue
        mp = _PARTITION_RE.search(lines[b.attr_line])
        out.append([int(x) for x in mp.group(1).split(",")] if mp else None)
    return out, stages


def write_partitions(lines: list[str], span: tuple[int, int], body: list[Any],
                     per_op: list[list[int] | None], stages: list[int]) -> None:
    """Copy ``read_partitions``' result onto the loop at ``span`` of ``lines`` (in place); ``body``
    is its top-level ops in body order, the yield and Proton records left out (records go to the
    default partition)."""
    k = 0
    for b in body:
        if b.name == "proton.record":
            ids: list[int] = [0]
        else:
            ids = per_op[k] or [0]
            k += 1
        attr = f"{PARTITION} = {_array(ids)}"
        for nested in ops_of(lines, b.first + 1, b.attr_line):
            lines[nested.attr_line] = _set_partition(lines[nested.attr_line], attr)
        lines[b.attr_line] = _set_partition(lines[b.attr_line], attr)
    st = ", ".join(f"{x} : i32" for x in stages)
    if STAGES in lines[span[1]]:
        raise CompileError("the loop is warp-specialized already", where="scf.for",
                           expected=f"no {STAGES} before twill's", found=lines[span[1]].strip()[:120])
    lines[span[1]] = add_attrs(lines[span[1]], f"{STAGES} = [{st}], {TAG} = 0 : i32" +
                               ("" if WS_HINT in lines[span[1]] else f", {WS_HINT}"))


def _set_partition(line: str, attr: str) -> str:
    if _PARTITION_RE.search(line):
        return _PARTITION_RE.sub(attr, line, count=1)
    return add_attrs(line, attr)


def warp_specialized(annotated: str) -> bool:
    """Whether an annotated TTGIR carries a warp assignment (``ttg.partition.stages`` on its loop)."""
    return STAGES in annotated


@dataclass(frozen=True)
class AnnotateResult:
    """The annotated TTGIR ``twill optimize`` writes, and whether it is warp-specialized.

    ``reason`` says why not (no warp map, one group, Triton's error) or, when it is, which partitions
    it has; ``partitions`` is the assignment written (or the one tried, when none was); ``projected``
    says that warp groups were merged to make Triton compile it (``merge_readers``).
    """

    text: str
    warp_specialized: bool
    reason: str
    partitions: Partitions | None = None
    checked: bool = False
    projected: bool = False
    private: tuple[str, ...] = ()
    num_stages: int | None = None

    def line(self) -> str:
        """One line for the command's output."""
        if self.warp_specialized:
            how = "compiled offline" if self.checked else "not compiled (no kernel source to check it with)"
            if self.num_stages is not None:
                how += f", launch with num_stages={self.num_stages}"
            return f"warp specialization: {self.partitions.count if self.partitions else 0} partitions ({how}): " \
                   f"{self.reason}"
        return f"warp specialization: none, stages only ({self.reason})"

    def to_dict(self) -> dict[str, Any]:
        return {"warp_specialized": self.warp_specialized, "reason": self.reason, "checked": self.checked,
                "projected": self.projected, "private": list(self.private), "num_stages": self.num_stages,
                "partitions": self.partitions.to_dict() if self.partitions else None}


CHECK_TIMEOUT = 120.0   # seconds (a compile takes 2-10 s): Triton 3.6 can loop forever on a partitioned loop


def annotate(pre_ttgir: str, g: LoopGraph, s: Schedule, spec: Any = None, arch: str | None = None,
             triton_version: str | None = None, distance: int | None = None,
             timeout: float = CHECK_TIMEOUT) -> AnnotateResult:
    """The annotated TTGIR of ``s``: stages and clusters (``codegen.annotate``) and, when ``s`` has a
    warp map of two or more groups, Triton partitions.

    With ``spec`` (a ``KernelSpec``) and ``arch`` the partitioned module is compiled offline (in a
    child process, at most ``timeout`` seconds). If Triton rejects it and some loaded tile is read by
    several partitions (which Triton 3.6 cannot compile), the warp map is projected onto what it can:
    the groups reading a common tile become one partition, and that is compiled in turn. If that is
    rejected too, the result is the stages-only annotation. The header says what was given up and why.

    Examples
    --------
    >>> r = annotate(pre, graph, joint, load_kernel("kernels/fa3_subtiled.py", "h100"), "h100")  # doctest: +SKIP
    >>> r.warp_specialized, r.line()                                                             # doctest: +SKIP
    (True, 'warp specialization: 2 partitions (compiled offline): partition 0 = compute group 0 ...')
    """
    from codegen.annotate import annotate_ttgir, placement

    stages_only = annotate_ttgir(pre_ttgir, g, s, triton_version, distance=distance)
    if not s.warp:
        return AnnotateResult(stages_only, False, "the schedule has no warp assignment (modulo schedule only)")
    stage = placement(g, s, triton_version, distance=distance).stage_map
    parts = partitions(g, s, stage)
    if parts is None:
        return AnnotateResult(stages_only, False, "the warp assignment uses one warp group")
    lone = _lone_consumer(parts, arch) or _partition_width(parts, arch, g.get("num_warps"))
    if lone:
        return AnnotateResult(_with_header(stages_only, [f"// twill: warp specialization not written: {lone}",
                                                         f"// twill: the assignment: {parts.describe()}"]),
                              False, lone, parts)
    text = _partitioned(stages_only, g, parts)
    if spec is None or arch is None:
        return AnnotateResult(text, True, parts.describe(), parts)
    error, depth = fitting_depth(spec, arch, text, timeout)
    if error is None:
        return AnnotateResult(text, True, parts.describe(), parts, checked=True, num_stages=depth)
    reason = f"Triton rejected the partitions: {blame(error, text)}"
    shared = shared_tiles(text, g, parts)
    if shared:
        why = ", ".join(f"the tile of {n} is read by partitions {' and '.join(map(str, ps))}" for n, ps in shared)
        reason += f"; {why} (Triton 3.6 passes a loaded tile to one consumer partition)"
        lines = text.splitlines()
        plines, done = privatize(lines, _loop(lines))
        if done:
            what = ", ".join(f"{n} loaded once for each of partitions {' and '.join(map(str, ps))}" for n, ps in done)
            text_p = _with_header("\n".join(plines) + "\n", [f"// twill: tiles privatized: {what}",
                                                               f"// twill: tried first as written: {reason}"])
            error_p, depth = fitting_depth(spec, arch, text_p, timeout)
            if error_p is None:
                return AnnotateResult(text_p, True, f"{parts.describe()} ({what})", parts, checked=True,
                                      private=tuple(n for n, _ in done), num_stages=depth)
            reason += f"; with the tiles privatized: {blame(error_p, text_p)}"
        merged, joined = merge_readers(g, s, parts, shared, stage)
        if merged is not None and _lone_consumer(merged, arch):
            reason += f"; merging the groups that read them leaves {_lone_consumer(merged, arch)}"
        elif merged is not None:
            text2 = _partitioned(stages_only, g, merged)
            error2, depth = fitting_depth(spec, arch, text2, timeout)
            if error2 is None:
                what = f"warp groups {' and '.join(map(str, joined))} share one partition, since {why}"
                text2 = _with_header(text2, [f"// twill: warp assignment projected: {what}",
                                             f"// twill: tried first {parts.describe()}: {reason}"])
                return AnnotateResult(text2, True, f"{merged.describe()} (projected: {what})", merged,
                                      checked=True, projected=True, num_stages=depth)
    fallback = _with_header(stages_only, [f"// twill: warp specialization given up: {reason}",
                                          f"// twill: tried {parts.describe()}"])
    return AnnotateResult(fallback, False, reason, parts, checked=True)


SM90_ARCHS = ("h100", "h200")


def _lone_consumer(parts: Partitions, arch: str | None) -> str | None:
    """Why a partitioning is not written on sm_90, or None. With one compute partition (a producer
    for the loads and nothing else) Triton 3.6 either miscompiles (pipelined: wrong results on the
    H200, relative error 5e-2) or runs at a quarter of the speed (unpipelined: 123.7 against 497.9
    TFLOP/s): bench/results/NOTES.md runs 14 and 15. The ping-pong (two compute partitions) is the
    case that runs correct and faster there."""
    if arch not in SM90_ARCHS:
        return None
    compute = [r for r in parts.roles if r.startswith("compute group")]
    if len(compute) >= 2:
        return None
    return ("one compute partition beside the loads' on sm_90: Triton 3.6 miscompiles it when pipelined and "
            "runs it at 0.25x unpipelined (bench/results/NOTES.md runs 14-15); the stages alone are written")


def _partition_width(parts: Partitions, arch: str | None, num_warps: Any) -> str | None:
    """Why a partitioning is not written on sm_90, or None: Triton 3.6 gives every partition the
    kernel's ``num_warps`` (``partition-loops``; ``optimize-partition-warps``, which would shrink them,
    fails on the sm_90 route), so a schedule whose warp groups are narrower than ``num_warps`` would
    run with each group duplicated across the extra warps and a register budget split three ways."""
    if arch not in SM90_ARCHS or not parts.warps_per_group or not num_warps:
        return None
    if int(num_warps) == int(parts.warps_per_group):
        return None
    return (f"the schedule's warp groups are {parts.warps_per_group} warps wide, but Triton 3.6 gives every "
            f"partition the kernel's num_warps ({num_warps}) on sm_90: solve with --num-warps {parts.warps_per_group}")


def _partitioned(stages_only: str, g: LoopGraph, parts: Partitions) -> str:
    header = f"// twill warp specialization: {parts.describe()}; partition stages {list(parts.stages)}"
    if parts.warps_per_group:
        header += f"; the schedule assumed {parts.warps_per_group} warps per group (Triton sizes the partitions)"
    return _with_header(add_partitions(stages_only, g, parts), [header])


def merge_readers(g: LoopGraph, s: Schedule, parts: Partitions, shared: list[tuple[str, list[int]]],
                  stage: dict[str, int]) -> tuple[Partitions | None, list[int]]:
    """The partitions of ``s`` with the warp groups that read a common loaded tile merged into the
    lowest of them, and the groups merged; None when fewer than two partitions remain."""
    group_of = {p: grp for grp, p in parts.group}
    rep = {grp: grp for grp in group_of.values()}

    def find(x: int) -> int:
        while rep[x] != x:
            x = rep[x]
        return x

    for _, readers in shared:
        groups = sorted(find(group_of[p]) for p in readers)
        for other in groups[1:]:
            rep[other] = groups[0]
    members: dict[int, list[int]] = {}
    for grp in rep:
        members.setdefault(find(grp), []).append(grp)
    joined = sorted(x for ms in members.values() if len(ms) > 1 for x in ms)
    merged = replace(s, warp=tuple((v, find(w)) for v, w in s.warp))
    return partitions(g, merged, stage), joined


def fitting_depth(spec: Any, arch: str, annotated: str, timeout: float = CHECK_TIMEOUT) -> tuple[str | None, int | None]:
    """(None, num_stages) for the deepest ``num_stages`` <= the kernel's at which ``annotated``
    compiles and fits the arch's shared memory, else (Triton's error, None). In a warp-specialized
    loop ``num_stages`` is the depth of the buffers between partitions (Triton's ``aref``s): the
    loads' exposed pipeline depth of paper 5.3, lowered until the buffers fit."""
    error = None
    for depth in range(max(1, int(spec.options.get("num_stages") or 1)), 0, -1):
        error = check_compiles(spec, arch, annotated, timeout, dict(spec.options, num_stages=depth))
        if error is None:
            return None, depth
        if not error.startswith(SMEM_ERROR):
            return error, None
    return error, None


SMEM_ERROR = "needs more shared memory than the SM has"


def smem_limit(arch: str) -> int:
    from twill.machine.model import load_machine

    return int(dict(load_machine(arch).memory_caps)["smem"])


def check_compiles(spec: Any, arch: str, annotated: str, timeout: float = CHECK_TIMEOUT,
                   options: dict[str, Any] | None = None) -> str | None:
    """None when ``annotated`` compiles to cubin for ``arch`` and fits its shared memory, else
    Triton's error (or the shared-memory shortfall) on one line. The compilation runs in a forked
    child so that a pass that never returns (Triton 3.6's pipeliner on some partitioned loops) costs
    ``timeout`` seconds, not the process."""
    import multiprocessing as mp
    import os

    from codegen.compile import compile_annotated

    def shared_of(k: Any) -> int:
        return int(getattr(k.metadata, "shared", 0) or 0)

    try:
        ctx = mp.get_context("fork")
    except ValueError:   # no fork (not Linux / macOS): compile here, without a time limit
        try:
            result: Any = shared_of(compile_annotated(spec, arch, annotated, options))
        except TwillError as e:
            return str(e)
    else:
        recv, send = ctx.Pipe(duplex=False)

        def child() -> None:
            try:
                send.send(shared_of(compile_annotated(spec, arch, annotated, options)))
            except BaseException as e:   # noqa: BLE001 - everything goes back to the parent as text
                send.send(str(e) or type(e).__name__)
            finally:
                send.close()
                os._exit(0)

        proc = ctx.Process(target=child, daemon=True)
        proc.start()
        send.close()
        try:
            if not recv.poll(timeout):
                return f"Triton did not finish compiling within {timeout:.0f} s (a pass loops on this partitioning)"
            result = recv.recv()
        except EOFError:
            return f"the compiling process died (exit code {proc.exitcode})"
        finally:
            if proc.is_alive():
                proc.kill()
            proc.join()
    if isinstance(result, str):
        return result
    limit = smem_limit(arch)
    if result > limit:
        depth = (options or spec.options).get("num_stages")
        return f"{SMEM_ERROR}: {result} bytes at num_stages={depth}, the limit is {limit}"
    return None


def _with_header(text: str, lines: list[str]) -> str:
    """``text`` with ``lines`` added after its leading ``// twill`` comments."""
    body = text.splitlines()
    k = 0
    while k < len(body) and body[k].startswith("// twill"):
        k += 1
    return "\n".join(body[:k] + lines + body[k:]) + "\n"


def blame(message: str, annotated: str) -> str:
    """Triton's error, with the partition and twill node of the op it names when the message gives
    an op's source location or a partition index."""
    msg = message.strip().splitlines()[-1] if message.strip() else message
    for prefix in ("PassManager::run failed: ", "Triton failed to compile the kernel: "):
        if prefix in msg:   # the wrappers' prefixes: keep Triton's own words
            msg = msg.rsplit(prefix, 1)[1]
    m = re.search(r"partition (?:#|index )(\d+)", msg)
    where = []
    if m:
        where.append(f"partition {m.group(1)}")
    lines = annotated.splitlines()
    for name in re.findall(r"'([a-z_]+\.[\w.]+)' op", msg):
        try:
            span = _loop(lines)
        except CompileError:
            break
        for b in body_ops(lines, span):
            if b.name == name:
                mp = _PARTITION_RE.search(lines[b.attr_line])
                mn = re.search(r'twill\.node = "([^"]+)"', lines[b.attr_line])
                where.append(f"{name}" + (f" of node {mn.group(1)}" if mn else "") +
                             (f" in partition {mp.group(1).strip()}" if mp else ""))
                break
    return msg + (f" [{'; '.join(where)}]" if where else "")
