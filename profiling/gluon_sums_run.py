"""On the GPU: a generated Gluon kernel profiled with region sums (``profiling.gluon_sums``) in place of Proton's
records, written as the profile JSON ``twill validate`` compares with the prediction (the shape
``profiling.gluon_profile.report`` writes: ``runs``, ``combined`` regions and partitions, ``loop_run``).

The runs: the first sums no region (every partition's main loop timed whole and its trips counted: the loop run),
then the regions, those no region held included (``with_gaps``), dealt into runs of at most ``per_run``. Each run is
timed alternately with the plain kernel (its overhead) and launched once at the timed problem with the buffer zeroed,
so its figures are every program's, every iteration's, at the size timed: a region's cycles per iteration are its sum
over all programs over their trips. A run's partition period is its loop's cycles per iteration over the run's
overhead, as a Proton run's. Imports torch (and Triton) only when called.
"""
from __future__ import annotations

import dataclasses
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from profiling.gluon import load_source
from profiling.gluon_profile import Variant, adjacent_timings, plain_timing
from profiling.gluon_sums import UNION, by_difference, read_sums, runs_of, sums_source, with_gaps, with_unions
from profiling.gluon_sums_plan import planned_runs

PROGRAMS = 1 << 16     # the programs a launch may have: the buffer holds each one's partitions' slots
LIMIT = 1.05           # --sums auto: a run that costs the kernel more is measured again in halves (#17: <= 5 %)
MAX_SPLITS = 40        # at most so many runs halved in one profile (each run a few seconds on the GPU)


def sums_run(v: Variant, names: tuple[str, ...], label: str, clock: str = "clock") -> dict[str, Any]:
    """One run: its overhead against the plain kernel and its sums read back (the clock read as ``clock``:
    ``profiling.gluon_sums.CLOCKS``)."""
    import torch

    text, layout = sums_source(v.source, v.ks, names, clock)
    mod = load_source(text, str(v.work), f"twill_sums_{label}_{os.getpid()}")
    buf = torch.zeros(layout.words(PROGRAMS), dtype=torch.int32, device="cuda")
    mod.TWILL_PROF = buf
    v.use(mod)
    v.kmod.launch(v.big)              # compiled and warmed up
    torch.cuda.synchronize()
    buf.zero_()
    v.kmod.launch(v.big)
    torch.cuda.synchronize()
    figures = read_sums(buf.cpu().tolist(), layout)
    v.use(v.plain)
    ms, plain = adjacent_timings(v, mod, None)
    figs = {str(p): f for p, f in figures.items()}
    return {"label": label, "kind": "sums", "regions": list(names), "instrumented_ms": ms, "plain_adjacent_ms": plain,
            "overhead": round(ms / plain, 4), "figures": figs, "summary": _summary(figs),
            "clock": clock}


def _summary(figures: dict[str, dict[str, float]]) -> dict[str, Any]:
    """A run's partitions as a Proton run's summary has them: the period its loop's cycles per iteration."""
    return {"partitions": {p: {"period_cycles": f["loop"], "trips": f["trips"], "programs": f["programs"],
                               "complete": True} for p, f in figures.items() if f.get("trips")}}


def sums_profile(directory: Path, kernel_file: str | Path, meta: dict[str, Any], per_run: int | str = 0,
                 say: Callable[[str], None] = print, clock: str = "clock", gaps: bool = True) -> dict[str, Any]:
    """The profile of the generated kernel in ``directory`` made of sums runs (``per_run`` regions a run, 0: all in
    one, "auto": as ``profiling.gluon_sums_plan`` plans them from their SASS, then each run that costs the kernel more
    than ``LIMIT`` measured again in halves), as ``twill validate`` reads a profile; ``gaps``: the statements no
    region holds timed as regions of their own (``with_gaps``)."""
    with tempfile.TemporaryDirectory(prefix="twill-gluon-sums-") as tmp:
        v = Variant(directory, Path(tmp), kernel_file, meta)
        plain_ms, _ = plain_timing(v)
        if gaps:
            v.ks = with_gaps(v.source, v.ks)
        queue = [((), None)] + run_plan(v, per_run, say)
        v.ks = with_unions(v.ks, [n for names, _ in queue for n in names])      # regions timed by difference
        say(f"{meta['label']}: plain {plain_ms:.4f} ms; {len(v.ks.scopes)} regions summed in {len(queue) - 1} runs"
            f"{' (halved while over x' + str(LIMIT) + ')' if per_run == 'auto' else ''}, at the timed problem {v.timed}")
        runs: list[dict[str, Any]] = []
        split: list[dict[str, Any]] = []
        while queue:
            names, spills = queue.pop(0)
            t0 = time.time()
            r = sums_run(v, names, f"sums{len(runs) + len(split)}", clock)
            r["seconds"] = round(time.time() - t0, 1)
            if spills is not None:
                r["sass_spills"] = spills
            halve = per_run == "auto" and len(names) > 1 and r["overhead"] > LIMIT and len(split) < MAX_SPLITS
            say(f"  {r['label']} ({len(names)} regions): x{r['overhead']} the plain kernel"
                + (", measured again in halves" if halve else ""))
            if halve:
                split.append({k: x for k, x in r.items() if k != "figures"})
                queue[:0] = [(h, None) for h in runs_of(names, -(-len(names) // 2))]
            else:
                runs.append(r)
        v.use(v.plain)
        import triton
        plain_after = triton.testing.do_bench(lambda: v.kmod.launch(v.big), warmup=25, rep=100, return_mode="median")
    prof = report(v, plain_ms, plain_after, runs, meta)
    prof["split_runs"] = split
    return prof


def run_plan(v: Variant, per_run: int | str, say: Callable[[str], None]) -> list[tuple[tuple[str, ...], Any]]:
    """The runs' regions (and, planned, each run's spills per partition in its SASS): ``per_run`` a run, or as the
    plan beside the kernel (``sums_plan.json``) has them, or planned here by compiling (``--sums auto``), the plan
    then written beside the kernel."""
    if per_run != "auto":
        return [(names, None) for names in runs_of(v.ks.names(), int(per_run))]
    runs = planned_runs(v.dir, v.source, v.ks, v.gjson["gluon"]["kernel"], say)
    for r in runs:
        if not r.fits:
            say(f"  {', '.join(r.names) if len(r.names) <= 3 else f'{len(r.names)} regions'}: spill more than the "
                f"loop run in their SASS ({r.spills}), measured so")
    return [(r.names, {str(p): s for p, s in r.spills.items()}) for r in runs]


def report(v: Variant, plain_ms: float, plain_after: float, runs: list[dict[str, Any]],
           meta: dict[str, Any]) -> dict[str, Any]:
    """The runs as a profile: each region from the run that summed it; each partition's period the median of its
    runs' (over their overheads); the first run (no region summed) is the loop run."""
    regions: dict[str, Any] = {}
    lines = v.source.splitlines()
    for r in runs[1:]:
        for p, f in r["figures"].items():
            for n in r["regions"]:
                if n in f:
                    s = v.ks.by_name[n]
                    regions[n] = {"partition": s.partition, "node": s.node, "kind": s.kind, "instances": s.instances,
                                  "iterations": f["trips"] / max(1, f["programs"]),
                                  "cycles_per_iteration": round(f[n], 1), "net_cycles_per_iteration": round(f[n], 1),
                                  "run": r["label"]}
                    if s.kind == "gap":     # the arrives it holds: a calibration prices an arrive from them
                        regions[n]["arrives"] = sum(line.count("mbarrier.arrive(") for a, b in s.spans
                                                    for line in lines[a - 1:b])
    regions = by_difference(regions, lambda w: (v.ks.by_name[w].kind, v.ks.by_name[w].node))
    parts: dict[str, Any] = {}
    for p in v.ks.partitions:
        periods = [r["figures"][str(p.index)]["loop"] / r["overhead"] for r in runs
                   if r["figures"].get(str(p.index), {}).get("trips")]
        if periods:
            parts[str(p.index)] = {"period_cycles": round(statistics.median(periods), 1),
                                   "period_cycles_by_run": [round(x, 1) for x in periods]}
    loop = runs[0]
    unmeasured = [n for n in v.ks.names() if n not in regions and UNION not in n]
    return {"label": meta["label"], "kernel_file": str(meta["kernel_file"]), "method": "sums",
            "timed_problem": v.timed, "traced_problem": v.timed, "iterations": v.iterations,
            "plain_ms": [plain_ms, plain_after],
            "partitions": [dict(dataclasses.asdict(p)) for p in v.ks.partitions],
            "runs": runs[1:], "combined": {"regions": regions, "partitions": parts},
            "max_overhead_of_runs": max(r["overhead"] for r in runs), "max_loop_cost_of_runs": None,
            "tiles_recorded": ["1 in 1"], "failed_runs": [], "unmeasured": unmeasured, "all_complete": not unmeasured,
            "loop_run": {"loops": [f"p{p}:loop" for p in loop["figures"]], "overhead": loop["overhead"],
                         "every_record_kept": True, "run": {k: x for k, x in loop.items() if k != "summary"},
                         "periods": {p: {"cycles_per_iteration": round(f["loop"], 1), "ctas": f["programs"]}
                                     for p, f in loop["figures"].items() if f.get("trips")}}}
