"""Trace replay (KPerfIR 5.3): per-record overhead subtracted, issue and wait of asynchronous ops kept
apart, clock wrap detected, cycles converted to ns with the measured SM clock; per-node statistics."""
from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from profiling.trace import Event


@dataclass(frozen=True)
class Stat:
    """Latency statistics of one region, in cycles after overhead subtraction."""

    count: int
    median: float
    p10: float
    p90: float
    mean: float

    def to_dict(self, ghz: float) -> dict[str, Any]:
        return {"count": self.count, "median_cycles": self.median, "p10_cycles": self.p10, "p90_cycles": self.p90,
                "mean_cycles": round(self.mean, 1), "median_ns": round(self.median / ghz, 1)}


def _pct(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, int(round(p / 100.0 * (len(s) - 1)))))]


def stat(xs: list[float]) -> Stat:
    return Stat(len(xs), statistics.median(xs), _pct(xs, 10), _pct(xs, 90), statistics.mean(xs))


def record_overhead(events: list[Event]) -> int:
    """Cycles one start/end record pair adds: the shortest region seen (an empty region measures only
    its records). A lower bound on the true overhead of regions with work in them."""
    return min(e.cycles for e in events)


def clock_wraps(events: list[Event], bits: int = 64) -> list[str]:
    """Where time goes backwards on a warp (a 32-bit clock wrapped) or a duration is negative."""
    out = []
    last: dict[tuple[int, int], int] = {}
    for e in events:
        k = (e.cta, e.warp)
        if e.cycles < 0 or (k in last and e.start < last[k]):
            out.append(f"CTA{e.cta} warp{e.warp} {e.name} at {e.start}")
        last[k] = e.start
    return out


def iterations(events: list[Event], first: str, every: int = 1) -> list[float]:
    """Start-to-start cycles of consecutive ``first`` regions on the same warp over ``every`` (the loop records one
    iteration in ``every``, ``profiling.unroll.unroll_recording``): one loop iteration."""
    starts: dict[tuple[int, int], list[int]] = defaultdict(list)
    for e in events:
        if e.name == first:
            starts[(e.cta, e.warp)].append(e.start)
    return [(b - a) / every if every > 1 else b - a for s in starts.values() for a, b in zip(sorted(s), sorted(s)[1:])]


def replay(events: list[Event], order: list[str], ghz: float, expected_iters: int | None = None,
           record_cycles: int | None = None, every: int = 1) -> dict[str, Any]:
    """Per-region statistics (node ids and ``wait:*`` regions), per-iteration time, per-warp-group means,
    overhead, clock checks and lost records. ``record_cycles``: a record pair's cost as another run of the same
    kernel measured it (``profiling.subsets``: a run of a few busy regions has no empty one to measure it by);
    None: this trace's shortest region. ``every``: the loop recorded one iteration in so many (of
    ``expected_iters``, those i with i % every == every - 1)."""
    ovh = record_overhead(events) if record_cycles is None else int(record_cycles)
    by: dict[str, list[float]] = defaultdict(list)
    by_wg: dict[tuple[str, int], list[float]] = defaultdict(list)
    per_unit: dict[tuple[int, int], int] = defaultdict(int)
    for e in events:
        c = max(0, e.cycles - ovh)
        by[e.name].append(c)
        by_wg[(e.name, e.warp // 4)].append(c)
        per_unit[(e.cta, e.warp)] += 1
    present = [n for n in order if n in by] + sorted(n for n in by if n not in order)
    first = next((n for n in order if n in by and not n.startswith("wait:") and _once_per_iter(events, n)), present[0])
    it = iterations(events, first, every)
    regions = {n: stat(by[n]).to_dict(ghz) for n in present}
    lost = None
    if expected_iters:
        want = expected_iters // every * len([n for n in order if n in by])
        short = [k for k, v in per_unit.items() if v < want]
        lost = {"units_short": len(short), "records_expected_per_warp": 2 * want,
                "records_kept_per_warp": 2 * min(per_unit.values())}
    return {
        "regions": regions,
        "iteration": stat(it).to_dict(ghz) | {"anchor": first} if it else None,
        "per_warp_group_mean_cycles": {f"{n}@wg{w}": round(statistics.mean(v), 1) for (n, w), v in sorted(by_wg.items())},
        "record_overhead_cycles": ovh,
        "clock": {"bits": 64, "wraps": clock_wraps(events)[:10], "ghz": ghz},
        "units": len(per_unit), "ctas": len({e.cta for e in events}),
        "lost_records": lost,
    }


def _once_per_iter(events: list[Event], name: str) -> bool:
    k = (events[0].cta, events[0].warp)
    n = [e for e in events if (e.cta, e.warp) == k and e.name == name]
    return len(n) > 1
