"""The Triton route's re-profile at or under 5 % overhead: the regions split among runs, combined.

One run with a region around every graph node and every pipeliner wait costs the FA forward 26 % of its time
(run 214, H200: 15 regions, two Proton records each, 750 cycles an iteration of 4811). Each region costs the kernel
about the same, so the regions are split among runs of a few each, sized from that run's cost a region
(``first_groups``); a run that still costs more than ``LIMIT`` is measured again in halves. A node's latency is
read from the run that timed it, the iteration from every run, each over its own overhead (instrumented over plain
time, timed beside each other), and the median of those taken: the runs time the same loop, so they agree up to
their noise, and a run's overhead corrects what its records cost. The run with every region stays what the critical
path is read from: its hops need both ends in one trace.

Why the combination is sound: a region's records sit around its own ops, so what it measures is those ops as the
pipeliner placed them; with fewer records in the loop, the loop's other ops are disturbed less, not differently.
The record pair's own cost (the shortest region of the run with every region, ``profiling.replay.record_overhead``)
is subtracted in every run: a run of a few busy regions has no empty one to measure it by.

Each run also records one loop iteration in ``EVERY`` (``profiling.unroll.unroll_recording``: the loop unrolled,
the records in the last copy of its body; ``profiling.kernel.traced_problem``): a region's records cost the kernel
about half what they cost recording every iteration, so one region whose own record pair costs more than 5 % (the
FA forward's exponent: x1.048-1.073 in runs 216-218, the pair keeping its MUFU ops from interleaving with the adds
after them; x1.034-1.039 one iteration in 2) is measured within the limit too, and what a recorded iteration
measures is what it measured before (the same records around the same ops).

Pure functions here (no GPU): ``profiling.kernel.profile_subsets`` runs them.
"""
from __future__ import annotations

import statistics
from typing import Any, Callable, Mapping, Sequence

LIMIT = 1.05          # a run costing the kernel more is measured again in halves (#17: at or under 5 %)
MAX_SPLITS = 24       # at most so many runs halved in one profile (each a compile and two timings)
MARGIN = 0.9          # a first run is sized to cost this share of LIMIT's 5 % at the all-region run's rate
WAIT = "wait:"        # a pipeliner wait's region name starts so (inserted after the last pass, ``insert_wait_records``)
EVERY = 2             # a run records one loop iteration in so many


def wants_subsets(whole: Mapping[str, Any], limit: float = LIMIT) -> bool:
    """Whether the run with every region (a ``twill.profile/1`` record) cost the kernel more than ``limit``.

    >>> wants_subsets({"overhead": {"ratio": 1.26}}), wants_subsets({"overhead": {"ratio": 1.03}}), wants_subsets({})
    (True, False, False)
    """
    ratio = (whole.get("overhead") or {}).get("ratio")
    return bool(ratio and ratio > limit)


def first_groups(names: Sequence[str], ratio: float | None, limit: float = LIMIT) -> list[tuple[str, ...]]:
    """The first runs' regions: ``names`` (node ids, then the waits' regions) in their order, in runs of as many
    regions as cost the kernel at most ``MARGIN`` of ``limit``'s overhead at the rate a region of the all-region run
    cost (its ``ratio``, instrumented over plain, spread evenly over its regions); one run of all where that run was
    already within ``limit``.

    Examples
    --------
    >>> first_groups(["a", "b", "c", "d", "e"], 1.25)      # 5 % a region: one a run
    [('a',), ('b',), ('c',), ('d',), ('e',)]
    >>> first_groups(["a", "b", "c", "d", "e"], 1.06)      # 1.2 % a region: three a run
    [('a', 'b', 'c'), ('d', 'e')]
    >>> first_groups(["a", "b"], 1.03)
    [('a', 'b')]
    """
    names = tuple(names)
    if not names:
        return []
    if ratio is None or ratio <= limit:
        return [names] if ratio is not None else [(n,) for n in names]
    per = (ratio - 1) / len(names)
    k = max(1, int(MARGIN * (limit - 1) / per + 1e-9))
    return [names[i:i + k] for i in range(0, len(names), k)]


def halves(names: Sequence[str]) -> list[tuple[str, ...]]:
    """A run's regions in two runs (the first the larger).

    >>> halves(["a", "b", "c"])
    [('a', 'b'), ('c',)]
    """
    h = -(-len(names) // 2)
    return [tuple(names[:h]), tuple(names[h:])]


def measure_all(names: Sequence[str], ratio: float | None, measure: Callable[[tuple[str, ...]], dict[str, Any]],
                limit: float = LIMIT, say: Callable[[str], None] = print) -> tuple[list[dict[str, Any]],
                                                                                  list[dict[str, Any]]]:
    """Every region of ``names`` measured once in a kept run: ``first_groups``' runs, each ``measure``d (its
    ``run_entry``), one over ``limit`` measured again in ``halves`` (at most ``MAX_SPLITS`` times); (kept runs, runs
    measured again).

    >>> fake = lambda g: {"regions": list(g), "overhead": round(1 + 0.03 * len(g), 2)}
    >>> kept, again = measure_all(["a", "b", "c", "d"], 1.05, fake, say=lambda s: None)
    >>> [r["regions"] for r in kept], [r["regions"] for r in again]
    ([['a'], ['b'], ['c'], ['d']], [['a', 'b', 'c', 'd'], ['a', 'b'], ['c', 'd']])
    """
    queue = first_groups(names, ratio, limit)
    runs: list[dict[str, Any]] = []
    split: list[dict[str, Any]] = []
    while queue:
        grp = queue.pop(0)
        e = measure(grp)
        again = len(grp) > 1 and e["overhead"] is not None and e["overhead"] > limit and len(split) < MAX_SPLITS
        say(f"  {', '.join(grp)}: x{e['overhead']} the plain kernel" + (", measured again in halves" if again else ""))
        if again:
            split.append(e)
            queue[:0] = halves(grp)
        else:
            runs.append(e)
    return runs, split


def split_names(names: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A run's regions as ``record_plan`` takes them: (node ids, wait regions).

    >>> split_names(["dot0_qk", "wait:warp_group_dot_wait:0"])
    (('dot0_qk',), ('wait:warp_group_dot_wait:0',))
    """
    return tuple(n for n in names if not n.startswith(WAIT)), tuple(n for n in names if n.startswith(WAIT))


def run_entry(names: Sequence[str], rep: Mapping[str, Any], plain_ms: float | None, inst_ms: float | None,
              lost: Mapping[str, Any] | None, every: int = 1) -> dict[str, Any]:
    """One run as the combined profile lists it: its regions, timings, overhead, iteration (instrumented and over
    the overhead), whether it kept every record, the iterations it recorded (one in ``every``), and its regions'
    statistics (``stats``: replay's ``regions``).

    >>> e = run_entry(["a"], {"regions": {"a": {"median_cycles": 10}}, "iteration": {"median_cycles": 105.0}},
    ...               1.0, 1.05, None)
    >>> e["overhead"], e["iteration_cycles"], e["iteration_cycles_uninstrumented"], e["every_record_kept"]
    (1.05, 105.0, 100.0, True)
    """
    ratio = round(inst_ms / plain_ms, 4) if plain_ms and inst_ms else None
    it = (rep.get("iteration") or {}).get("median_cycles")
    kept = not lost or int(lost.get("records_kept_per_warp", 0)) >= int(lost.get("records_expected_per_warp", 0))
    return {"regions": list(names), "plain_ms": plain_ms, "instrumented_ms": inst_ms, "overhead": ratio,
            "iteration_cycles": it,
            "iteration_cycles_uninstrumented": round(it / ratio, 1) if it and ratio else None,
            "every_record_kept": kept, "lost_records": dict(lost) if lost else None, "recorded_every": every,
            "stats": dict(rep.get("regions") or {})}


def combine(runs: Sequence[Mapping[str, Any]], split: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """The kept runs as one profile: each region's statistics from the run that timed it (``nodes``; the waits
    apart, ``waits``), the iteration the median of the runs' iterations over their overheads, the largest overhead
    of a kept run, whether every run kept every record; ``runs`` without their statistics, ``split_runs`` the runs
    measured again in halves.

    >>> a = run_entry(["n1"], {"regions": {"n1": {"median_cycles": 7}}, "iteration": {"median_cycles": 102.0}},
    ...               1.0, 1.02, None)
    >>> b = run_entry(["wait:x:0"], {"regions": {"wait:x:0": {"median_cycles": 3}},
    ...                            "iteration": {"median_cycles": 104.0}}, 1.0, 1.04, None)
    >>> c = combine([a, b])
    >>> c["nodes"], c["waits"], c["iteration"]["median_cycles"], c["max_overhead"], c["every_record_kept"]
    ({'n1': {'median_cycles': 7}}, {'wait:x:0': {'median_cycles': 3}}, 100.0, 1.04, True)
    """
    nodes: dict[str, Any] = {}
    waits: dict[str, Any] = {}
    for r in runs:
        for n, s in r["stats"].items():
            (waits if n.startswith(WAIT) else nodes)[n] = s
    its = [float(r["iteration_cycles_uninstrumented"]) for r in runs if r.get("iteration_cycles_uninstrumented")]
    over = [float(r["overhead"]) for r in runs if r.get("overhead")]
    return {"method": "subsets", "limit": LIMIT, "nodes": nodes, "waits": waits,
            "iteration": {"median_cycles": round(statistics.median(its), 1), "runs": len(its),
                          "min_cycles": round(min(its), 1), "max_cycles": round(max(its), 1)} if its else None,
            "max_overhead": max(over) if over else None,
            "every_record_kept": all(r["every_record_kept"] for r in runs),
            "runs": [{k: v for k, v in r.items() if k != "stats"} for r in runs],
            "split_runs": [{k: v for k, v in r.items() if k != "stats"} for r in split]}


def subsets_summary(sub: Mapping[str, Any]) -> str:
    """The text ``twill profile --subsets`` prints: the runs, then each region's median from the run that timed it.

    >>> e = run_entry(["a"], {"regions": {"a": {"median_cycles": 7.0}}, "iteration": {"median_cycles": 102.0}},
    ...               1.0, 1.02, None, every=2)
    >>> print(subsets_summary(combine([e])))
    runs of a few regions: 1 kept (0 measured again in halves), each recording one loop iteration in 2, the largest overhead x1.02, every record kept
    iteration: 100.0 cycles (each run's over its overhead, the median of 1; 100.0-100.0)
      a: x1.02
    region                     median  cycles
    a                               7
    """
    it = sub.get("iteration") or {}
    every = max((int(r.get("recorded_every") or 1) for r in sub["runs"]), default=1)
    lines = [f"runs of a few regions: {len(sub['runs'])} kept ({len(sub['split_runs'])} measured again in halves), "
             + (f"each recording one loop iteration in {every}, " if every > 1 else "") +
             f"the largest overhead x{sub['max_overhead']}, "
             f"{'every record kept' if sub['every_record_kept'] else 'records lost'}"]
    if it:
        lines.append(f"iteration: {it['median_cycles']} cycles (each run's over its overhead, the median of "
                     f"{it['runs']}; {it['min_cycles']}-{it['max_cycles']})")
    lines += [f"  {', '.join(r['regions'])}: x{r['overhead']}" for r in sub["runs"]]
    lines.append(f"{'region':26}{'median':>7}  cycles")
    lines += [f"{n:26}{s['median_cycles']:>7.0f}" for n, s in list(sub["nodes"].items()) + list(sub["waits"].items())]
    return "\n".join(lines)
