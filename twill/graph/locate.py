"""Where a loop graph's nodes are in a module's text: the loop it was built from and the node owning each op.

The annotator, the partitioner, the Gluon back end and the profiler all edit or read the module
a graph came from; they find the graph's loop and ops through these functions. A loop is recognised
by its ops, not by SSA names alone: MLIR reuses names across sibling loops (and a helper inlined
twice gives two loops with the same names), so an op is keyed by its first result, its name and its
location reference, which differ between the copies.
"""
from __future__ import annotations

import re
from collections import Counter

from twill.errors import CompileError
from twill.graph.model import LoopGraph
from twill.ir import ttgir, vocab

_LOC = re.compile(r"loc\((#loc\d*)\)\s*$")
_OPNAME = re.compile(r'(?:=\s*)?"?([a-z_]+\.[\w.]+)')

OpKey = tuple[str | None, str, str | None]


def op_key(line: str) -> OpKey:
    """(first result, op name, location reference) of an op's first line; stable under the attribute
    edits of annotation (``loop.stage`` and the like go before the type, the location stays last). The
    location tells apart only ops without a result (stores): location numbers shift with a launch's
    specialisation, SSA names of tile ops do not.

    Examples
    --------
    >>> op_key('%5 = tt.dot %a, %b, %c {loop.stage = 2 : i32} : ... loc(#loc7)')
    ('%5', 'tt.dot', None)
    >>> op_key('tt.store %p, %v : tensor<64x!tt.ptr<f32>> loc(#loc9)')
    (None, 'tt.store', '#loc9')
    """
    s = line.strip()
    result = ttgir.first_result(s)
    rest = s.split(" = ", 1)[1] if result is not None and " = " in s else s
    m = _OPNAME.match(rest.lstrip())
    loc = _LOC.search(s) if result is None else None     # an SSA name is unique; a location only
    return result, (m.group(1) if m else rest.split(" ", 1)[0]), (loc.group(1) if loc else None)


def node_of_value(g: LoopGraph) -> dict[str, str]:
    """The graph node that defines each SSA value of the loop body (from the TTGIR lines each node folds).

    Examples
    --------
    >>> from twill.graph.model import Op
    >>> node_of_value(LoopGraph("l", (Op("d", "dot", "tc", ir=("%5 = tt.dot %a, %b, %c : ...",)),), ()))
    {'%5': 'd'}
    """
    out: dict[str, str] = {}
    for o in g.ops:
        for line in o.ir:
            first = ttgir.first_result(line)
            if first:
                out[first] = o.id
    return out


_INDEX_MATH = re.compile(r"=\s*(\"?)arith\.\w+\1?[^:]*:\s*(i1|i8|i16|i32|i64|index)\s+(loc|$)")


def _wanted(g: LoopGraph) -> Counter:
    """The ops that identify the graph's loop: all but integer scalar arithmetic (offsets, indices), whose
    SSA names shift with the launch's specialisation (an argument equal to 1 or divisible by 16 folds
    differently), so the same loop compiled for a real launch still matches."""
    return Counter(op_key(line) for o in g.ops for line in o.ir if not _INDEX_MATH.search(line))


def _holds(lines: list[str], op: ttgir.TextOp, want: Counter) -> bool:
    have = Counter(op_key(lines[b.first]) for b in ttgir.region_ops(lines, op))
    return all(have[k] >= n for k, n in want.items())


def graph_loop(lines: list[str], g: LoopGraph, marker: str | None = None) -> ttgir.TextOp:
    """The ``scf.for`` of ``lines`` that ``g`` was built from: the one whose body holds every op of
    the graph (keyed by ``op_key``), the loop at the graph's recorded index when several do. Never a
    loop that holds only some of them. ``marker`` restricts the search to loops whose closing line
    carries it (an annotated loop's ``tt.scheduled_max_stage``)."""
    want = _wanted(g)
    loops = ttgir.loops(lines)
    index = g.get("loop_index")
    if marker is not None:
        loops = [op for op in loops if marker in lines[op.attr_line]]
        index = None
    hits = [op for op in loops if _holds(lines, op, want)]
    if isinstance(index, int) and 0 <= index < len(loops) and loops[index] in hits:
        return loops[index]
    if len(hits) == 1:
        return hits[0]
    missing = _missing(lines, loops, want)
    raise CompileError("the graph does not match the IR", where=g.name,
                       expected=f"one loop holding all {sum(want.values())} ops of the graph"
                                + (f" (loop {index})" if isinstance(index, int) else ""),
                       found=f"{len(hits)} such loops among {len(loops)}" + (f"; the closest lacks {missing}" if missing else ""))


def _missing(lines: list[str], loops: list[ttgir.TextOp], want: Counter) -> str:
    """The graph's ops the closest loop lacks, as (result, op, location) keys (the first three)."""
    best: list[OpKey] = []
    for op in loops:
        have = Counter(op_key(lines[b.first]) for b in ttgir.region_ops(lines, op))
        lack = [k for k, n in want.items() if have[k] < n]
        if not best or len(lack) < len(best):
            best = lack
    return ", ".join(" ".join(str(x) for x in k) for k in best[:3])


def node_of_ops(lines: list[str], loop: ttgir.TextOp, g: LoopGraph) -> dict[int, str]:
    """The graph node of each top-level op of ``loop``'s body (by the op's first line index), ops
    without results (stores) included; ops no node folds (left as bookkeeping) are absent."""
    pending: dict[OpKey, list[str]] = {}
    for o in g.ops:
        for line in o.ir:
            pending.setdefault(op_key(line), []).append(o.id)
    out: dict[int, str] = {}
    for b in ttgir.region_ops(lines, loop):
        if b.name == vocab.YIELD:
            continue
        ids = pending.get(op_key(lines[b.first]))
        if ids:
            out[b.first] = ids.pop(0)
    return out
