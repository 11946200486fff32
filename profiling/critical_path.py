"""A schedule's critical path, predicted from its graph and start times and measured in a Proton trace,
and where a measured iteration goes (issue, waits, records)."""
from __future__ import annotations

import bisect
import graphlib
import statistics
from collections import defaultdict
from typing import Any, Mapping, Sequence

from profiling.replay import record_overhead
from twill.graph.analysis import recurrences
from twill.graph.model import Dep, LoopGraph
from twill.schedule.model import Schedule


def compute_deps(g: LoopGraph) -> tuple[list[str], list[Dep]]:
    """Compute ops in program order (streaming loads are predicted in place: they start no chain) and
    the same-iteration dependences between them."""
    compute = [o.id for o in g.ops if not o.variable_latency]
    return compute, [d for d in g.deps if d.distance == 0 and d.src in compute and d.dst in compute and d.src != d.dst]


def predicted_critical_path(g: LoopGraph, s: Schedule) -> tuple[Dep, ...]:
    """The dependences of the longest same-iteration chain of compute ops by the graph's delays, ending
    at the op that completes last; an op alone (GEMM's accumulating dot) extends along its tightest
    recurrence to its next iteration. Empty when the loop has no chain at all.

    Examples
    --------
    >>> [(d.src, d.dst) for d in predicted_critical_path(g, s)]      # doctest: +SKIP
    [('dot0_qk', 'reduce0_m_ij'), ('reduce0_m_ij', 'elementwise0_m_ij'), ...]
    """
    compute, deps = compute_deps(g)
    preds: dict[str, list[Dep]] = defaultdict(list)
    for d in deps:
        preds[d.dst].append(d)
    ts = graphlib.TopologicalSorter({v: {d.src for d in preds[v]} for v in compute})
    order = {o.id: i for i, o in enumerate(g.ops)}
    lp: dict[str, int] = {}
    via: dict[str, Dep] = {}
    for v in ts.static_order():
        lp[v] = 0
        for d in sorted(preds[v], key=lambda d: order[d.src]):
            if lp[d.src] + (d.delay or 0) > lp[v]:
                lp[v], via[v] = lp[d.src] + (d.delay or 0), d
    if not lp:
        return ()
    lat = {o.id: o.cycles or 0 for o in g.ops}
    end = max(lp, key=lambda v: (lp[v] + lat[v], -order[v]))
    chain: list[Dep] = []
    while end in via:
        chain.append(via[end])
        end = via[end].src
    chain.reverse()
    if chain:
        return tuple(chain)
    recs = [r for r in recurrences(g) if set(r.ops) <= set(compute) and r.bound is not None]
    if not recs:
        return ()
    return max(recs, key=lambda r: (r.delay or 0) / r.distance).deps


class TraceIndex:
    """A trace's events by (CTA, warp), in start order, with each op's instances apart."""

    def __init__(self, events: Sequence[Any]):
        self.warps: dict[tuple[int, int], list[Any]] = defaultdict(list)
        for e in events:
            self.warps[(e.cta, e.warp)].append(e)
        self.starts: dict[tuple[int, int], list[int]] = {}
        self.named: dict[tuple[int, int], dict[str, list[Any]]] = {}
        self.ctas: dict[int, list[int]] = defaultdict(list)
        for k, evs in sorted(self.warps.items()):
            evs.sort(key=lambda e: e.start)
            self.starts[k] = [e.start for e in evs]
            by: dict[str, list[Any]] = defaultdict(list)
            for e in evs:
                by[e.name].append(e)
            self.named[k] = by
            self.ctas[k[0]].append(k[1])
        self.wait_names = sorted({e.name for e in events if e.name.startswith("wait:")})


def pair_gaps(ix: TraceIndex, dep: Dep, stage: Mapping[str, int], windows: bool, ovh: int = 0
               ) -> tuple[list[int], dict[str, list[int]], list[str]]:
    """Start-to-start cycles from ``dep.src`` of iteration i to ``dep.dst`` of iteration i + distance,
    per instance; the ``wait:*`` cycles inside each gap on the same warp (less ``ovh``, one record
    pair's cost); the regions issued in between, in the first instance.

    The k-th recorded instance of an op at stage st belongs to iteration k + max_stage - st (the
    pipeliner's prologue copies carry no records), so pairs are k and k + distance + st(dst) - st(src)."""
    shift = dep.distance + stage.get(dep.dst, 0) - stage.get(dep.src, 0)
    gaps: list[int] = []
    waits: dict[str, list[int]] = defaultdict(list)
    between: list[str] | None = None
    for cta, ws in sorted(ix.ctas.items()):
        has = {w: ix.named[(cta, w)] for w in ws}
        pairs = [(w, w) for w in ws if dep.src in has[w] and dep.dst in has[w]]
        if not pairs:        # producer and consumer on different warps (warp specialisation): same SM clock
            wu = [w for w in ws if dep.src in has[w]]
            wv = [w for w in ws if dep.dst in has[w]]
            pairs = [(wu[0], wv[0])] if wu and wv else []
        for wu, wv in pairs:
            us, vs = has[wu][dep.src], has[wv][dep.dst]
            evs, starts = ix.warps[(cta, wu)], ix.starts[(cta, wu)]
            for k, u in enumerate(us):
                if not 0 <= k + shift < len(vs):
                    continue
                v = vs[k + shift]
                gaps.append(v.start - u.start)
                if windows and wu == wv:
                    inside = evs[bisect.bisect_right(starts, u.start):bisect.bisect_left(starts, v.start)]
                    per: dict[str, int] = defaultdict(int)
                    for e in inside:
                        if e.name.startswith("wait:"):
                            per[e.name] += max(0, e.cycles - ovh)
                    for name in ix.wait_names:
                        waits[name].append(per.get(name, 0))
                    if between is None:
                        between = [e.name for e in inside if not e.name.startswith("wait:")]
    return gaps, waits, between or []


def measured_critical_path(events: Sequence[Any], g: LoopGraph, s: Schedule, scale: float,
                           stage: Mapping[str, int] | None = None,
                           overhead_ratio: float | None = None) -> dict[str, Any] | None:
    """The schedule's critical path (``predicted_critical_path``) measured in a Proton trace: per hop
    the predicted start-to-start cycles (the schedule's start times) against the measured median, the
    waits inside and the ops issued in between; and the longest chain by measured hop times, which
    is the critical path the GPU actually ran when it differs from the predicted one.

    ``events`` are ``profiling.trace.Event`` of the re-profile, ``scale`` cycles per schedule unit,
    ``stage`` the stage of each op in the profiled placement (``codegen.placement.placement``);
    ``overhead_ratio`` (instrumented / plain kernel time) gives an estimate of the uninstrumented path
    (records slow issue-bound hops, not the ones an asynchronous op's latency bounds: an estimate).

    Examples
    --------
    >>> cp = measured_critical_path(load_trace(path), g, s, 9.7154, stage)  # doctest: +SKIP
    >>> cp["predicted_cycles"], cp["measured_cycles"]                                          # doctest: +SKIP
    (2603.6, 3285.5)
    """
    chain = predicted_critical_path(g, s)
    if not chain or not events:
        return None
    st = dict(stage or {})
    start = s.start_map
    ix = TraceIndex(events)
    ovh = record_overhead(list(events))
    hops = []
    for d in chain:
        gaps, waits, between = pair_gaps(ix, d, st, windows=True, ovh=ovh)
        pred = (start[d.dst] + s.ii * d.distance - start[d.src]) * scale
        hop: dict[str, Any] = {"src": d.src, "dst": d.dst, "distance": d.distance, "predicted_cycles": round(pred, 1),
                               "measured_cycles": statistics.median(gaps) if gaps else None, "samples": len(gaps)}
        w = {k: statistics.median(v) for k, v in sorted(waits.items()) if v and statistics.median(v) > 0}
        if w:
            hop["waits"] = w
        if between:
            hop["between"] = between
        hops.append(hop)
    nodes = [chain[0].src] + [d.dst for d in chain]
    pred_total = round(sum(h["predicted_cycles"] for h in hops), 1)
    meas = [h["measured_cycles"] for h in hops]
    meas_total = float(sum(meas)) if all(m is not None for m in meas) else None
    bare = round(meas_total / overhead_ratio, 1) if meas_total is not None and overhead_ratio else None

    def err(x: float | None) -> float | None:
        return round((x - pred_total) / pred_total, 4) if x is not None and pred_total else None

    out: dict[str, Any] = {
        "nodes": nodes, "predicted_cycles": pred_total, "measured_cycles": meas_total, "error": err(meas_total),
        "measured_cycles_uninstrumented": bare, "error_uninstrumented": err(bare), "hops": hops,
        "note": "start-to-start cycles from the first op of the chain to the last (a loop-carried hop ends in a "
                "later iteration), medians over every traced iteration; waits: the pipeliner's wait regions "
                "inside a hop; uninstrumented: measured / (instrumented / plain kernel time), an estimate"}
    # The longest chain by measured hop times over every same-iteration compute dependence.
    compute, deps = compute_deps(g)
    med: dict[tuple[str, str], float] = {}
    for d in deps:
        gaps, _, _ = pair_gaps(ix, d, st, windows=False)
        if gaps:
            med[(d.src, d.dst)] = max(med.get((d.src, d.dst), 0.0), float(statistics.median(gaps)))
    if med:
        ts = graphlib.TopologicalSorter({v: {a for a, b in med if b == v} for v in compute})
        lp: dict[str, float] = {}
        via: dict[str, str] = {}
        for v in ts.static_order():
            lp[v] = 0.0
            for (a, b), c in sorted(med.items()):
                if b == v and lp[a] + c > lp[v]:
                    lp[v], via[v] = lp[a] + c, a
        end = max(lp, key=lambda v: lp[v])
        path = [end]
        while path[-1] in via:
            path.append(via[path[-1]])
        path.reverse()
        out["measured_path"] = {"nodes": path, "cycles": lp[end]}
    return out


def iteration_breakdown(prof: Mapping[str, Any]) -> dict[str, Any] | None:
    """Where a measured iteration goes, from a ``twill.profile/1`` record: the ops' own regions
    (issue), the pipeliner's waits, the records themselves (two per region), and the rest (time no
    region covers). Medians, so the parts add up only approximately.

    Examples
    --------
    >>> iteration_breakdown(json.load(open("profile.json")))       # doctest: +SKIP
    {'iteration': 4810.0, 'ops': 3170.0, 'waits': 602.5, 'records': 750, 'other': 287.5}
    """
    it = (prof.get("iteration") or {}).get("median_cycles")
    if not it:
        return None
    nodes = prof.get("nodes") or {}
    waits = prof.get("waits") or {}
    ops = sum(float(v["median_cycles"]) for v in nodes.values())
    wt = sum(float(v["median_cycles"]) for v in waits.values())
    rec = int(prof.get("record_overhead_cycles") or 0) * (len(nodes) + len(waits))
    return {"iteration": float(it), "ops": ops, "waits": wt, "records": rec, "other": round(float(it) - ops - wt - rec, 1)}

