"""Deterministic text listing and Graphviz dot of a loop graph."""
from __future__ import annotations

from typing import TYPE_CHECKING

from twill.graph.analysis import recurrences
from twill.graph.model import LoopGraph

if TYPE_CHECKING:
    from twill.graph.extract import KernelLoops


def listing(g: LoopGraph) -> str:
    """One line per node (plus its folded ops and attributes), per edge and per recurrence; stable across
    runs (no paths, no hashes).

    Examples
    --------
    >>> print(listing(g).splitlines()[0])     # doctest: +SKIP
    loop graph _attn_fwd  arch=h100 num_warps=8 loop_line=67  12 nodes, 18 edges
    """
    meta = dict(g.meta)
    w = max([len(o.id) for o in g.ops] + [8])
    out = [f"loop graph {g.name}  arch={meta.get('arch')} num_warps={meta.get('num_warps')} "
           f"loop_line={meta.get('loop_line')}  {len(g.ops)} nodes, {len(g.deps)} edges", "nodes:"]
    for o in g.ops:
        shape = "x".join(map(str, o.shape)) or "-"
        flags = [f for f, on in (("variable_latency", o.variable_latency), ("streaming", o.streaming)) if on]
        cost = f" cycles={o.cycles}" if o.cycles is not None else ""
        foot = " ".join(f"{k}={v}" for k, v in (("regs", o.regs), ("smem", o.smem), ("tmem", o.tmem)) if v)
        out.append(f"  {o.id:<{w}} {o.kind:<11} unit={o.unit:<4} {shape:>8} {o.dtype:<4} line={o.line}"
                   f"{cost}{' ' + foot if foot else ''}{' [' + ','.join(flags) + ']' if flags else ''}")
        out.append(f"  {'':<{w}} ops: {', '.join(o.ops)}")
        if o.attrs:
            out.append(f"  {'':<{w}} attrs: {' '.join(f'{k}={v}' for k, v in sorted(o.attrs))}")
    out.append("edges:")
    for d in g.deps:
        delay = "" if d.delay is None else f" delay={d.delay}"
        out.append(f"  {d.src:>{w}} -> {d.dst:<{w}} distance={d.distance}{delay}"
                   f"{' blocking' if d.blocking else ''}  ({d.value})")
    recs = recurrences(g)
    out.append(f"recurrences: {len(recs)}")
    for r in recs:
        out.append(f"  {' -> '.join(r.ops + r.ops[:1])}  distance={r.distance}"
                   + (f" delay={r.delay}" if r.delay is not None else ""))
    return "\n".join(out) + "\n"


def loop_table(kernels: "list[KernelLoops]", kernel: str, index: int | None, choice: str) -> str:
    """Every loop of every kernel of a file, one line each (index, source line, depth, dots, loads,
    stores, ops, where), loop ``index`` of ``kernel`` (the one scheduled) marked ``*``, ``choice`` saying why.

    Examples
    --------
    >>> print(loop_table(file_loops(path, target, kir), "softmax_online", 1, choice))     # doctest: +SKIP
    loops of softmax_online:
        loop  line  depth  dots  loads  stores  ops  in
        0     14    0      0     1      0       12
      * 1     20    0      0     1      1       11
    scheduled: loop 1 of 2 (line 20, ...): the innermost loop with the most tensor-core and memory work; ...
    """
    out: list[str] = []
    for k in kernels:
        if k.error is not None:
            where = ", ".join(f"line {line} (depth {d})" for line, d in k.source) or "none"
            out.append(f"loops of {k.kernel}: not compiled ({k.error}); in its source: {where}")
            continue
        out.append(f"loops of {k.kernel}:")
        out.append(f"    {'loop':<5} {'line':<5} {'depth':<6} {'dots':<5} {'loads':<6} {'stores':<7} {'ops':<4} in")
        for i in k.loops:
            mark = "*" if k.kernel == kernel and i.index == index else " "
            inside = " > ".join(i.parents) + (f" (helper {i.func})" if i.helper else "")
            if i.own_line is not None:      # the line is the call's: say where the helper's `for` is
                inside = (inside + " " if inside else "") + f"(a helper's for, line {i.own_line}, inlined here)"
            flag = "" if i.innermost else "  (holds a loop)"
            out.append(f"  {mark} {i.index:<5} {i.line if i.line is not None else '?':<5} {i.depth:<6} {i.dots:<5} "
                       f"{i.loads:<6} {i.stores:<7} {i.ops:<4} {inside}{flag}".rstrip())
    out.append(f"scheduled: {choice}")
    return "\n".join(out) + "\n"


_COLOURS = {"dot": "#f4a6c0", "tma_load": "#9bd49b", "load": "#9bd49b", "sfu": "#9ec5f0", "reduce": "#f3d08a",
            "elementwise": "#e6e6e6", "convert": "#d8cff0", "tmem_load": "#f7c59f", "tmem_store": "#f7c59f",
            "store": "#c0c0c0"}


def dot(g: LoopGraph) -> str:
    """Graphviz source; distance >= 1 edges dashed, blocking edges bold."""
    lines = [f'digraph "{g.name}" {{', "  rankdir=TB; node [shape=box, style=filled, fontname=Helvetica];"]
    for o in g.ops:
        label = f"{o.id}\\n{o.kind}" + (f"\\n{o.cycles} cyc" if o.cycles is not None else "")
        lines.append(f'  "{o.id}" [label="{label}", fillcolor="{_COLOURS.get(o.kind, "#ffffff")}"];')
    for d in g.deps:
        attrs = []
        if d.distance:
            attrs.append(f'style=dashed, label="d={d.distance}"')
        if d.blocking:
            attrs.append("penwidth=2.5")
        lines.append(f'  "{d.src}" -> "{d.dst}"' + (f" [{', '.join(attrs)}]" if attrs else "") + ";")
    lines.append("}")
    return "\n".join(lines) + "\n"
