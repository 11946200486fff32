"""Where a loop graph's nodes are in a module's text: the loop it was built from and the node owning each value.

The annotator, the partitioner, the Gluon back end and the profiler all edit or read the module
a graph came from; they find the graph's loop and ops through these two functions.
"""
from __future__ import annotations

from twill.errors import CompileError
from twill.graph.model import LoopGraph
from twill.ir import ttgir


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


def graph_loop(lines: list[str], g: LoopGraph, marker: str | None = None) -> ttgir.TextOp:
    """The ``scf.for`` of ``lines`` that ``g`` was built from: the loop at the graph's recorded index
    when its body defines the graph's values (MLIR reuses SSA names across sibling loops, so the
    names alone do not identify it), else the first loop whose body does. ``marker`` restricts the
    search to loops whose closing line carries it (an annotated loop's ``tt.scheduled_max_stage``)."""
    owner = node_of_value(g)
    loops = ttgir.loops(lines)
    if marker is not None:
        loops = [op for op in loops if marker in lines[op.attr_line]]

    def holds(op: ttgir.TextOp) -> bool:
        return any(b.result in owner for b in ttgir.region_ops(lines, op))

    index = g.get("loop_index")
    if marker is None and isinstance(index, int) and 0 <= index < len(loops) and holds(loops[index]):
        return loops[index]
    for op in loops:
        if holds(op):
            return op
    raise CompileError("the graph does not match the IR", where=g.name,
                       expected="a loop holding the graph's SSA names", found="none")
