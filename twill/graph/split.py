"""Cut a loop graph's row block into sub-tiles, where the rows are independent (``twill.ir.dims``).

A node whose ops touch the rows (a dot of the tile, the softmax of its rows, a row statistic) is
copied once per sub-tile, with its shapes and costs cut along the rows; a node that does not (the
K and V loads of an attention loop) stays one node that every copy reads. The copies are what the
joint search assigns to warp groups: with two sub-tiles of a 128-row FlashAttention tile it can
give each its own 4-warp group (FA3's two consumer warpgroups) instead of one 8-warp group.
"""
from __future__ import annotations

import dataclasses

from twill.errors import UnsupportedError
from twill.graph.model import Dep, LoopGraph, Op
from twill.ir.dims import RowSplit
from twill.ir.ttgir import IROp

SUFFIX = "_s"      # node id of sub-tile i: <id>_s<i>


def subtile_id(node: str, i: int) -> str:
    return f"{node}{SUFFIX}{i}"


def split_nodes(g: LoopGraph, rs: RowSplit, body: list[IROp]) -> dict[str, IROp]:
    """The nodes that run per sub-tile, each with the op of it that touches the rows first."""
    by_text = {op.text: op for op in body}
    out: dict[str, IROp] = {}
    for o in g.ops:
        for line in o.ir:
            op = by_text.get(line)
            if op is not None and rs.touches(op):
                out[o.id] = op
                break
    return out


def _scaled(o: Op, anchor: IROp, rs: RowSplit, nc: int, i: int) -> Op:
    a = dict(o.attrs)
    res = anchor.results[0] if anchor.results else None
    dim = rs.dims.get(res) if res is not None else None
    shape = list(o.shape)
    if dim is not None and dim < len(shape):
        shape[dim] //= nc
    if o.kind == "dot":
        rows = len(o.shape) - 1         # a batched dot's batch and M dimensions both divide its m
        if dim is not None and dim < rows:
            a["m"] = int(a.get("m", 0)) // nc
        elif dim == rows:
            a["n"] = int(a.get("n", 0)) // nc
        if res in rs.partial or (anchor.operands and rs.dims.get(anchor.operands[0]) == 1):
            a["k"] = int(a.get("k", 0)) // nc       # contracts over the rows: each sub-tile's part
    for key in ("elements", "bytes", "input_elements"):
        if key in a and (dim is not None or o.kind == "dot"):
            a[key] = int(a[key]) // nc
    a.update(subtile=i, subtiles=nc, split_of=o.id)
    return dataclasses.replace(o, id=subtile_id(o.id, i), shape=tuple(shape), regs=o.regs // nc,
                               smem=o.smem // nc if dim is not None else o.smem, tmem=o.tmem // nc,
                               attrs=tuple(sorted(a.items())))


def split_graph(g: LoopGraph, rs: RowSplit, body: list[IROp], nc: int) -> LoopGraph:
    """``g`` with its row block cut into ``nc`` sub-tiles (``nc`` = 1: ``g`` itself).

    Examples
    --------
    >>> g2 = split_graph(g, row_split(fn, loop), loop.body.ops, 2)     # doctest: +SKIP
    >>> [o.id for o in g2.ops if o.kind == "dot"]                      # doctest: +SKIP
    ['dot0_qk_s0', 'dot0_qk_s1', 'dot1_acc_s0', 'dot1_acc_s1']
    """
    if nc == 1:
        return g
    if not rs.possible:
        raise UnsupportedError("the rows cannot be split", where=g.name, found=rs.why_not())
    if rs.rows % nc:
        raise UnsupportedError("the rows do not divide into sub-tiles", where=g.name,
                               expected=f"{rs.rows} rows divisible by {nc}", found=str(rs.rows))
    split = split_nodes(g, rs, body)
    ops: list[Op] = []
    for o in g.ops:
        if o.id in split:
            ops.extend(_scaled(o, split[o.id], rs, nc, i) for i in range(nc))
        else:
            ops.append(o)
    deps: list[Dep] = []
    for d in g.deps:
        srcs = [subtile_id(d.src, i) for i in range(nc)] if d.src in split else [d.src] * nc
        dsts = [subtile_id(d.dst, i) for i in range(nc)] if d.dst in split else [d.dst] * nc
        pairs = dict.fromkeys(zip(srcs, dsts))
        deps.extend(dataclasses.replace(d, src=s, dst=t) for s, t in pairs)
    return LoopGraph(g.name, tuple(ops), tuple(deps), g.meta).with_meta(row_split=nc, rows=rs.rows,
                                                                        split_nodes=sorted(split))
