"""Cycles per loop iteration, per partition and per region, from the Proton trace of a Gluon kernel
instrumented by ``profiling.gluon``; several runs over disjoint region subsets combined, and the
combination compared with a run that times every region at once."""
from __future__ import annotations

import bisect
import statistics
from collections import defaultdict
from typing import Any, Iterable, Mapping

from profiling.gluon import LOOP, KernelScopes, loop_partition
from profiling.trace import Event
from twill.machine.calibrate import period_of


def _units(events: list[Event]) -> dict[str, dict[tuple[int, int], list[Event]]]:
    by: dict[str, dict[tuple[int, int], list[Event]]] = defaultdict(lambda: defaultdict(list))
    for e in events:
        by[e.name][(e.cta, e.warp)].append(e)
    return by


def _region(ks: KernelScopes, name: str, units: Mapping[tuple[int, int], list[Event]], warp: int,
            empty: float) -> dict[str, Any]:
    s = ks.by_name[name]
    iters = [len(evs) / s.instances for evs in units.values()]
    per_iter = [sum(e.cycles for e in evs) / it for evs, it in zip(units.values(), iters) if it]
    durs = sorted(e.cycles for evs in units.values() for e in evs)
    mean = statistics.mean(per_iter) if per_iter else None
    return {"partition": s.partition, "node": s.node, "kind": s.kind, "instances": s.instances,
            "units": len(units), "iterations": statistics.median(iters) if iters else 0,
            "cycles_per_iteration": round(mean, 1) if mean is not None else None,
            "net_cycles_per_iteration": round(max(0.0, mean - s.instances * empty), 1) if mean is not None else None,
            "median_instance_cycles": statistics.median(durs) if durs else None,
            "p10_instance_cycles": durs[len(durs) // 10] if durs else None,
            "p90_instance_cycles": durs[(9 * len(durs)) // 10] if durs else None,
            "other_warps": sorted({w for _, w in units if w != warp})}


def _period(units: Mapping[tuple[int, int], list[Event]]) -> float | None:
    """Median over CTAs of the mean start-to-start cycles of a once-per-iteration region: the amortized period,
    which spreads the loop's first trips (the rings filling) and any gaps between tiles over the iterations."""
    per = []
    for evs in units.values():
        st = sorted(e.start for e in evs)
        if len(st) > 1:
            per.append((st[-1] - st[0]) / (len(st) - 1))
    return round(statistics.median(per), 1) if per else None


def _steady_period(units: Mapping[tuple[int, int], list[Event]]) -> float | None:
    """Median over CTAs of the median start-to-start gap of a once-per-iteration region: the steady state's
    period, as the replay and the schedule count it. The first trips' gaps and a gap that spans two tiles are a
    few of a CTA's (one in 32 at N = 4k), so the median skips them where the mean spreads them over the loop.

    >>> from profiling.trace import Event
    >>> evs = [Event("r", 0, 0, 0, t, 5) for t in (0, 100, 200, 300, 1000, 1100, 1200)]
    >>> _steady_period({(0, 0): evs}), _period({(0, 0): evs})
    (100.0, 200.0)
    """
    per = []
    for evs in units.values():
        st = sorted(e.start for e in evs)
        if len(st) > 1:
            per.append(statistics.median(b - a for a, b in zip(st, st[1:])))
    return round(statistics.median(per), 1) if per else None


def _loops(recorded: Mapping[tuple[int, int], list[Event]], plain: Mapping[tuple[int, int], list[Event]],
           anchor: Mapping[tuple[int, int], list[Event]]) -> dict[str, Any]:
    """A tile-sampled run's main loops (``profiling.gluon.instrument(every=K)``): those of the recorded tiles
    (``p<P>:loop``) and of the plain ones (``p<P>:plain_loop``, the kernel's code without records). ``loop_cost``
    (recorded over plain, medians) compares them across programs where a program has one tile (the FA forward's
    scattered 0.85-1.29, run 34a: reported, not used as a correction);
    ``plain_period_cycles``, the plain loops' cycles over the recorded loops' trips (the anchor region's instances
    in one; a loop whose trips differ from tile to tile reads as their medians), the kernel's own period amortized
    over the loop; {} for a run without loop records.

    >>> from profiling.trace import Event
    >>> ev = lambda n, s, d: Event(n, 0, 0, 0, s, d)
    >>> rec, plain = {(0, 0): [ev("p0:loop", 0, 1100)]}, {(0, 0): [ev("p0:plain_loop", 2000, 1000)]}
    >>> r = _loops(rec, plain, {(0, 0): [ev("p0:dot", 100 + 110 * i, 10) for i in range(10)]})
    >>> r["loop_cost"], r["plain_period_cycles"], r["recorded_loops"], r["plain_loops"]
    (1.1, 100.0, 1, 1)
    """
    if not recorded and not plain:
        return {}
    rec = [e.cycles for evs in recorded.values() for e in evs]
    pl = [e.cycles for evs in plain.values() for e in evs]
    trips = []
    for u, evs in recorded.items():
        marks = sorted(e.start for e in anchor.get(u, ()))
        trips += [bisect.bisect_right(marks, e.start + e.cycles) - bisect.bisect_left(marks, e.start) for e in evs]
    r = statistics.median(rec) if rec else None
    p = statistics.median(pl) if pl else None
    t = statistics.median(trips) if trips and max(trips) > 0 else None
    return {"recorded_loops": len(rec), "plain_loops": len(pl), "recorded_loop_cycles": r, "plain_loop_cycles": p,
            "loop_trips": t, "loop_cost": round(r / p, 4) if r and p else None,
            "plain_period_cycles": round(p / t, 1) if p and t else None}


def _by_cta(by: Mapping[str, Mapping[tuple[int, int], list[Event]]], p: int, anchor: str | None,
            names: list[str]) -> dict[str, Any]:
    """Per CTA: the anchor region's instances (the trips of the partition's loops over the CTA's tiles: the same in
    every run of a problem, the tiles a CTA takes being fixed) and, in a loop run (``p<P>:loop`` alone), its loops'
    cycles and count."""
    out: dict[str, Any] = {}
    if anchor:
        trips: dict[str, int] = defaultdict(int)
        for (cta, _), evs in by.get(anchor, {}).items():
            trips[str(cta)] += len(evs)
        out["trips_by_cta"] = dict(trips)
    if f"p{p}:{LOOP}" in names:
        cycles: dict[str, float] = defaultdict(float)
        count: dict[str, int] = defaultdict(int)
        for (cta, _), evs in by.get(f"p{p}:{LOOP}", {}).items():
            cycles[str(cta)] += sum(e.cycles for e in evs)
            count[str(cta)] += len(evs)
        out["loop_cycles_by_cta"], out["loops_by_cta"] = dict(cycles), dict(count)
    return out


def loop_periods(loop_run: Mapping[str, Any], runs: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Each partition's cycles per iteration from a loop run (``loop_run``: its summary; the main loops timed whole,
    no record inside them): per CTA its loops' cycles over their trips, the trips counted by the anchor region of
    another run of the same problem (``runs``: summaries); the median over CTAs, the amortized period of the loop
    (its first trips, the rings filling, included). A CTA whose trips two runs count differently is left out.

    >>> lr = {"partitions": {"0": {"loop_cycles_by_cta": {"0": 3300.0, "1": 3000.0}, "loops_by_cta": {"0": 1, "1": 1}}}}
    >>> other = [{"partitions": {"0": {"trips_by_cta": {"0": 30, "1": 30}}}}]
    >>> loop_periods(lr, other)["0"]["cycles_per_iteration"]
    105.0
    """
    out: dict[str, Any] = {}
    for p, v in (loop_run.get("partitions") or {}).items():
        cycles = v.get("loop_cycles_by_cta") or {}
        counts: dict[str, set[int]] = defaultdict(set)
        for r in runs:
            for cta, t in (((r.get("partitions") or {}).get(p) or {}).get("trips_by_cta") or {}).items():
                counts[cta].add(int(t))
        per = [c / next(iter(counts[cta])) for cta, c in cycles.items()
               if len(counts.get(cta, ())) == 1 and next(iter(counts[cta])) > 0]
        out[p] = {"cycles_per_iteration": round(statistics.median(per), 1) if per else None, "ctas": len(per),
                  "ctas_traced": len(cycles),
                  "ctas_inconsistent": sum(1 for cta in cycles if len(counts.get(cta, ())) > 1)}
    return out


def summarize(events: list[Event], ks: KernelScopes, names: Iterable[str],
              warps: Mapping[int, int] | None = None) -> dict[str, Any]:
    """One run's regions: cycles per iteration (mean over the recorded warps, one per partition and
    CTA, of the region's total cycles over the loop's iterations), ``net_`` with the record pair's
    own cost (the calibration region ``p<P>:empty``) taken off each instance; per partition, the loop's
    period, the sum of its timed regions, and whether every region saw the same iterations (no record
    lost); in a tile-sampled run, its recorded and plain main loops (``_loops``).

    Examples
    --------
    >>> summarize(load_trace("run0.chrome_trace"), ks, runs[0])["partitions"]["0"]["period_cycles"]  # doctest: +SKIP
    4212.0
    """
    names = list(names)
    warps = dict(warps or {p.index: p.first_warp for p in ks.partitions})
    by = _units(events)
    parts: dict[str, Any] = {}
    regions: dict[str, Any] = {}
    for p in ks.sampled(names):
        cal = [e.cycles for evs in by.get(f"p{p}:empty", {}).values() for e in evs]
        empty = float(statistics.median(cal)) if cal else 0.0
        mine = [n for n in names if loop_partition(n) is None and ks.by_name[n].partition == p]
        for n in mine:
            regions[n] = _region(ks, n, by.get(n, {}), warps[p], empty)
        anchor = next((n for n in mine if ks.by_name[n].instances == 1 and by.get(n)), None)
        per_unit: dict[tuple[int, int], set[float]] = defaultdict(set)
        for n in mine:
            s = ks.by_name[n]
            for u, evs in by.get(n, {}).items():
                per_unit[u].add(len(evs) / s.instances)
        missing = [n for n in mine if not by.get(n)]
        steady = _steady_period(by[anchor]) if anchor else None
        loops = _loops(by.get(f"p{p}:loop", {}), by.get(f"p{p}:plain_loop", {}), by.get(anchor or "", {}))
        parts[str(p)] = {"warp": warps[p], "empty_cycles": empty, "anchor": anchor,
                         "period_cycles": _period(by[anchor]) if anchor else None,
                         "steady_period_cycles": steady,
                         "timed_cycles_per_iteration": round(sum(regions[n]["cycles_per_iteration"] or 0
                                                                 for n in mine), 1),
                         "complete": not missing and all(len(v) == 1 for v in per_unit.values()),
                         "missing": missing, "units": len(per_unit)} | loops | _by_cta(by, p, anchor, names)
    return {"regions": regions, "partitions": parts, "ctas": len({e.cta for e in events}),
            "events": len(events)}


def combine(runs: list[dict[str, Any]], labels: list[str] | None = None) -> dict[str, Any]:
    """The regions of several runs over disjoint subsets, each from the run that timed it (``run``: its
    label, else its index), and per partition the sum of its regions' cycles per iteration and the
    loop's period in each run."""
    regions: dict[str, Any] = {}
    periods: dict[str, list[float]] = defaultdict(list)
    amortized: dict[str, list[float]] = defaultdict(list)
    for i, r in enumerate(runs):
        for n, v in r["regions"].items():
            if n in regions:
                raise ValueError(f"region {n} timed by two runs: the subsets must be disjoint")
            regions[n] = dict(v, run=labels[i] if labels else i)
        for p, v in r["partitions"].items():
            if period_of(v) is not None:
                periods[p].append(period_of(v))
            if v.get("period_cycles") is not None:
                amortized[p].append(v["period_cycles"])
    parts: dict[str, Any] = {}
    for p in sorted({str(v["partition"]) for v in regions.values()}, key=int):
        mine = [v for v in regions.values() if str(v["partition"]) == p]
        parts[p] = {"timed_cycles_per_iteration": round(sum(v["cycles_per_iteration"] or 0 for v in mine), 1),
                    "net_timed_cycles_per_iteration": round(sum(v["net_cycles_per_iteration"] or 0 for v in mine), 1),
                    "period_cycles_by_run": periods.get(p, []),
                    "period_cycles": statistics.median(periods[p]) if periods.get(p) else None,
                    "amortized_period_cycles": statistics.median(amortized[p]) if amortized.get(p) else None}
    return {"regions": regions, "partitions": parts}


def compare(combined: dict[str, Any], single: dict[str, Any]) -> dict[str, Any]:
    """Combined subset runs against one run timing every region: per region and per partition, the
    cycles per iteration of each and the relative difference (combined / single - 1)."""
    def rel(a: float | None, b: float | None) -> float | None:
        return round(a / b - 1, 4) if a is not None and b else None

    regions = {n: {"single": s["cycles_per_iteration"], "combined": combined["regions"][n]["cycles_per_iteration"],
                   "rel": rel(combined["regions"][n]["cycles_per_iteration"], s["cycles_per_iteration"])}
               for n, s in single["regions"].items() if n in combined["regions"]}
    parts = {}
    for p, s in single["partitions"].items():
        c = combined["partitions"].get(p, {})
        parts[p] = {"timed_single": s["timed_cycles_per_iteration"],
                    "timed_combined": c.get("timed_cycles_per_iteration"),
                    "timed_rel": rel(c.get("timed_cycles_per_iteration"), s["timed_cycles_per_iteration"]),
                    "period_single": period_of(s), "period_combined": c.get("period_cycles"),
                    "period_rel": rel(c.get("period_cycles"), period_of(s))}
    return {"regions": regions, "partitions": parts}
