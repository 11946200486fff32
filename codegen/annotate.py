"""Write a schedule's stages onto TTGIR: ``loop.stage`` / ``loop.cluster`` on the loop body's ops and
``tt.scheduled_max_stage`` on the loop, set right before Triton's pipeliner (the only point where
Triton 3.6 honours them: set earlier, ``assign_latencies`` overwrites them), each op tagged
``twill.node`` with its graph node id. ``codegen.placement`` decides the stages; this module edits text.
"""
from __future__ import annotations

from codegen.placement import Placement, placement
from twill.errors import CompileError
from twill.graph.locate import graph_loop, node_of_ops
from twill.graph.model import LoopGraph
from twill.ir import ttgir, vocab
from twill.machine.model import Machine
from twill.schedule.model import Schedule

MAX_STAGE = "tt.scheduled_max_stage"
NODE = "twill.node"


def apply(text: str, g: LoopGraph, p: Placement) -> str:
    """``text`` with the placement written onto the loop's ops: ``loop.stage``, ``loop.cluster``,
    ``twill.node``, and ``tt.scheduled_max_stage`` on the loop. Ops no node owns (address
    arithmetic) take the earliest stage and cluster among their users in the body."""
    lines = text.splitlines()
    span = graph_loop(lines, g)
    owner = node_of_ops(lines, span, g)     # stores and other ops without results included
    body = [b for b in ttgir.region_ops(lines, span) if b.name != vocab.YIELD]
    st, cl = p.stage_map, p.cluster_map
    place: dict[int, tuple[int, int, str | None]] = {}
    for b in body:
        node = owner.get(b.first)
        if node is not None and g.op(node).variable_latency and b.name not in vocab.LOADS:
            node = None   # the shared-memory copy of a loaded tile goes with its consumer (Triton's rule)
        if node is not None:
            place[b.first] = (st[node], cl[node], node)
    # Unowned ops: earliest user's stage/cluster, iterated backwards so chains resolve.
    results = {b.first: ttgir.result_names(lines[b.first]) for b in body}
    for _ in range(len(body)):
        changed = False
        for b in reversed(body):
            if b.first in place and place[b.first][2] is not None:
                continue
            users = [place[u.first] for u in body if u.first in place and u is not b
                     and results[b.first] & ttgir.op_uses(lines, u)]
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
        line = ttgir.set_int_attr(lines[b.attr_line], "loop.stage", stage)
        line = ttgir.set_int_attr(line, "loop.cluster", cluster)
        if node is not None and NODE not in line:
            line = ttgir.add_attrs(line, f'{NODE} = "{node}"')
        lines[b.attr_line] = line
    lines[span.attr_line] = ttgir.set_int_attr(lines[span.attr_line], MAX_STAGE, p.max_stage)
    return "\n".join(lines) + "\n"


def annotate_ttgir(pre_ttgir: str, g: LoopGraph, s: Schedule, machine: Machine, triton_version: str | None = None,
                   distance: int | None = None) -> str:
    """The pre-pipeline TTGIR with the (realisable) schedule written on the loop: the file users read
    and ``codegen.compile`` compiles. A header comment records the projection, if any. ``distance``
    overrides how many stages the streaming loads run ahead (the exposed depth of paper 5.3, a
    tuning parameter: default from ``load_distance``'s latency model)."""
    p = placement(g, s, machine, triton_version, distance=distance)
    text = apply(pre_ttgir, g, p)
    head = [f"// twill schedule: II={s.ii} L={s.length} status={s.status} max_stage={p.max_stage} "
            f"load_distance={p.load_distance}"]
    head += [f"// twill: {n}" for n in p.notes]
    return "\n".join(head) + "\n" + text
