"""On the GPU: a generated Gluon kernel profiled per partition with Proton region records (one region per
graph node and per wait in each partition's loop), a few regions per run, the runs combined.

1. the plain kernel timed (do_bench, median) at the kernel file's ``PROBLEM``;
1b. the loop runs (``loop_runs``): partition 0's main loop timed whole, then every partition's, no record inside a
   loop: the cycles per iteration at the lowest overhead, their trips counted by the subset runs;
2. one run timing every region at once (``no_single`` skips it), for the comparison;
3. runs over disjoint subsets of the regions (``profiling.gluon.plan_runs``: at most ``per_run`` regions each,
   within Proton's buffer: global by default, ``buffer="shared"`` where the records fit), each traced at
   ``PROFILE_PROBLEM`` and timed at ``PROBLEM``; a run over ``max_overhead`` is split in two and run again while
   ``budget`` seconds last; with ``loops_only``, one run of an anchor region a partition (``anchors``), which counts
   the trips of the loop run's loops, and nothing else;
4. the plain kernel timed again; cycles per iteration per partition and region, combined over the subset runs
   and compared with the single run; each run's overhead: the instrumented and the plain kernel timed alternately
   (``ADJACENT_PAIRS`` each), the ratio of their medians.

A run is not split, nor re-made recording fewer tiles, where its overhead is within ``FLOOR_SLACK`` of the lowest
that a run of one region of the same partitions has shown: that much is the partition's instrumented code, not its
records (run 102: the FA backward's consumer 1, 1.13-1.14x alone at every tile rate), and more runs cannot lower it.
With a ``journal`` (``Journal``), each run is kept as it ends and a profile that one command cannot finish (the FA
backward: 54 regions, 16-30 s a run, against the GPU machine's 600 s a command) continues where it stopped when the
same command is given again.

``profile_variant`` returns the profile record (the JSON ``bench/gluon_profile.py`` and ``twill validate`` write).
Imports no solver and nothing of codegen.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from profiling.gluon import (KernelScopes, buffer_for, instrument, load_source, partition_warps_from_llir, plan_runs,
                             records_per_warp, scopes_of, shared_records_per_warp)
from profiling.gluon_trace import combine, compare, loop_periods, summarize
from profiling.kernel import kernel_module
from profiling.run import captured_output, compiled_kernel, proton_drops
from profiling.trace import load_trace
from twill.errors import InputError, ProfileError
from twill.util import atomic_write


@dataclass(frozen=True)
class GluonProfileOptions:
    """How a generated kernel is profiled: regions per run, the overhead above which a run is split, the seconds
    after which no run is split (twice them: no run is made), the single all-region run, Proton's buffer, where
    to copy each run's trace (None: nowhere), and the tiles recorded: one in ``every`` (``profiling.gluon.instrument``;
    where ``every`` > 1, a run of one region over ``max_overhead`` is made again recording half as many, down to one
    in ``max_every``)."""

    per_run: int = 4
    max_overhead: float = 1.05
    every: int = 1
    max_every: int = 16
    budget: float = 50.0
    no_single: bool = False
    buffer: str = "global"
    keep_traces: Path | None = None
    journal: Path | None = None
    loops_only: bool = False
    sums: int | str | None = None     # region sums (``profiling.gluon_sums_run``): regions a run, or "auto"; None: Proton

    def key(self) -> dict[str, Any]:
        """What a journal's runs depend on, of these options."""
        return {"per_run": self.per_run, "max_overhead": self.max_overhead, "every": self.every,
                "max_every": self.max_every, "no_single": self.no_single, "buffer": self.buffer,
                "loops_only": self.loops_only}


class Journal:
    """A profile's progress kept on disk as each run ends (JSON, written atomically), keyed by what the runs depend
    on (the generated source, the kernel file, the options, the GPU): a command given again with the same key
    continues from it; another key starts over. ``path`` None: nothing kept."""

    def __init__(self, path: Path | None, key: dict[str, Any], say: Callable[[str], None] = print):
        self.path, self.key, self.data = path, key, {}
        if path is None or not path.exists():
            return
        try:
            old = json.loads(path.read_text())
        except (OSError, ValueError):
            old = {}
        if old.get("key") == key:
            self.data = old.get("data") or {}
            say(f"continuing the profile kept in {path}: {len(self.data.get('done', []))} runs made before")
        else:
            say(f"{path} was kept for another kernel, GPU or options: starting over")

    def get(self, section: str) -> Any:
        return self.data.get(section)

    def put(self, **sections: Any) -> None:
        self.data.update(sections)
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(self.path, json.dumps({"schema": "twill.profile-journal/1", "key": self.key,
                                                "data": self.data}) + "\n")

    def finish(self) -> None:
        """The profile is whole: nothing is left to continue."""
        if self.path is not None:
            self.path.unlink(missing_ok=True)


def _bench(fn: Any) -> float:
    import triton

    fn()
    return triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median")


class Variant:
    """One variant directory loaded on the GPU: its kernel file, generated source, regions, inputs."""

    def __init__(self, directory: Path, work: Path, kernel_file: str | Path, meta: dict[str, Any]):
        self.dir, self.work = directory, work
        self.meta = meta
        self.gjson = json.loads((directory / "gluon.json").read_text())
        self.source = (directory / "kernel_gluon.py").read_text()
        self.ks: KernelScopes = scopes_of(self.source, self.gjson.get("warp", {}))
        self.kmod = kernel_module(str(kernel_file))
        self.jit = self.meta["jit"]
        self.timed = dict(getattr(self.kmod, "PROBLEM", {}) or {})
        self.traced = dict(getattr(self.kmod, "PROFILE_PROBLEM", None) or getattr(self.kmod, "SMALL", None)
                           or self.timed)
        it = getattr(self.kmod, "loop_iterations", None)
        self.iterations = int(it(**self.traced)) if callable(it) else 256     # unknown: plan for many
        self.big = self.kmod.make_inputs(**self.timed, seed=13)
        self.small = self.kmod.make_inputs(**self.traced, seed=13)
        self.plain = load_source(self.source, str(work), f"twill_prof_plain_{os.getpid()}")
        self.max_shared = 0
        self.shared_used = 0

    def use(self, mod: Any) -> None:
        """The kernel file's JIT function replaced by ``mod``'s kernel; a module holding two kernels (for short loops,
        or timed at launch: ``codegen.gluon.short``) runs its warp-specialized one, whose partitions the regions
        instrument (the one partition would leave the profile without records)."""
        if hasattr(mod, "launch_long"):
            mod.launch = mod.launch_long
        setattr(self.kmod, self.jit, mod.kernel)

    def capacity(self, segments: int) -> int:
        return shared_records_per_warp(self.max_shared, self.shared_used, segments)


def plain_timing(v: Variant) -> tuple[float, Any]:
    """Time the plain kernel; read the shared memory it uses and its partitions' warps back from it."""
    import torch
    import triton

    v.use(v.plain)
    ms = _bench(lambda: v.kmod.launch(v.big))
    k = compiled_kernel((getattr(v.plain, v.gjson["gluon"]["kernel"]["kernel"]),))
    dev = torch.cuda.current_device()
    v.max_shared = int(triton.runtime.driver.active.utils.get_device_properties(dev)["max_shared_mem"])
    v.shared_used = int(getattr(k.metadata, "shared", 0)) if k is not None else v.max_shared
    got = partition_warps_from_llir(k.asm.get("llir", ""), v.ks.num_warps) if k is not None else {}
    if got:
        v.ks = v.ks.with_warps(got)
    out = v.kmod.launch(v.small)
    torch.cuda.synchronize()
    return ms, out.clone() if hasattr(out, "clone") else out


def instrumentation_mode(sampling: str, buffer_type: str, buffer_size: int) -> Any:
    """Proton's instrumentation mode for a run: the sampled warps (``sampling``) recording to ``buffer_type``."""
    from triton.profiler import mode as pmode

    return pmode.Default(sampling_strategy="selective", sampling_options=sampling, buffer_type=buffer_type,
                         buffer_size=buffer_size)


def plan(ks: KernelScopes, iterations: int, per_run: int, capacity: Any) -> list[tuple[str, ...]]:
    """The subset runs; when one region alone overflows the shared buffer, runs of ``per_run`` regions
    whose records go to a global buffer (``buffer_for`` picks it)."""
    try:
        return [tuple(r) for r in plan_runs(ks, None, per_run, iterations, capacity)]
    except InputError:
        return [tuple(r) for r in plan_runs(ks, None, per_run, iterations, lambda n: 1 << 30)]


def anchors(ks: KernelScopes) -> tuple[str, ...]:
    """One once-per-iteration region of each partition (its first): the run that counts each CTA's trips for the loop
    run (``loops_only``), the loop run itself recording nothing inside a loop."""
    out = []
    for p in ks.partitions:
        once = [n for n in ks.names(p.index) if ks.by_name[n].instances == 1]
        out += once[:1]
    return tuple(out)


def traced_run(v: Variant, names: tuple[str, ...], label: str, reference: Any, keep: Path | None,
               shared: bool = False, every: int = 1) -> dict[str, Any]:
    """One instrumented run: trace at the traced problem under a Proton session, summarise; then time
    it at the timed problem with Proton's hook on (no session: no trace)."""
    import torch
    import triton.profiler as proton

    t0 = time.time()
    sampling = v.ks.sampling(names)
    btype, bsize = buffer_for(v.ks, names, v.iterations, v.capacity, shared, every)
    mode = instrumentation_mode(sampling, btype, bsize)
    mod = load_source(instrument(v.source, v.ks, names, every=every), str(v.work), f"twill_prof_{label}_{os.getpid()}")
    v.use(mod)
    base = v.work / f"{label}"
    with captured_output(str(v.work / f"{label}.log")) as log:
        proton.start(str(base), data="trace", backend="instrumentation", mode=mode)
        try:
            out = v.kmod.launch(v.small)
            torch.cuda.synchronize()
        finally:
            proton.finalize()
    trace = Path(str(base) + ".chrome_trace")
    asked = records_per_warp(v.ks, names, v.iterations, every=every)
    summary = summarize(_read_trace(trace, log, (btype, bsize), asked), v.ks, names)
    if keep is not None:
        shutil.copy(trace, keep / f"{v.meta['label']}-{label}.chrome_trace")
    trace.unlink(missing_ok=True)
    diff = float((out.float() - reference.float()).abs().max().item()) if hasattr(out, "float") else None
    ms, plain = adjacent_timings(v, mod, mode)
    return {"label": label, "regions": list(names), "sampling": sampling, "buffer": [btype, bsize], "every": every,
            "records_per_warp": records_per_warp(v.ks, names, v.iterations, every=every), "instrumented_ms": ms,
            "plain_adjacent_ms": plain,
            "output_max_abs_diff": diff, "proton_dropped": proton_drops(log), "summary": summary,
            "seconds": round(time.time() - t0, 1)}


class EmptyTrace(ProfileError):
    """A traced launch that recorded nothing: Proton wrote an empty trace."""


def _read_trace(trace: Path, log: list[str], buffer: tuple[str, int], records: int) -> list[Any]:
    """The trace's events; where Proton wrote none readable, the error says what the run asked of Proton (its
    buffer and records per warp), the file's size and the last lines Proton printed (online_softmax's loop runs,
    run 182: an empty trace, and nothing else to go on)."""
    try:
        return load_trace(trace)
    except ProfileError as e:
        size = trace.stat().st_size if trace.exists() else None
        kind = EmptyTrace if size == 0 else ProfileError
        said = " | ".join(ln.strip() for ln in log if ln.strip())[-400:] or "nothing"
        raise kind(e.what, where=e.where, expected=e.expected,
                   found=f"{e.found}; {size if size is not None else 'no'} bytes written, a {buffer[0]} buffer "
                         f"of {buffer[1]} bytes, {records} records per warp asked; Proton printed: {said}") from None


ADJACENT_PAIRS = 3     # instrumented / plain timings alternated per run: the clock drifts over a run (run 5: the
                       # plain FA forward timed 1.716 ms before its runs and 1.939 ms after them)


def adjacent_timings(v: Variant, mod: Any, mode: Any) -> tuple[float, float]:
    """The instrumented kernel (Proton's hook on, no session: no trace; ``mode`` None: another plain-code variant,
    no hook) and the plain one timed alternately, ``ADJACENT_PAIRS`` times each: the medians, so a run's overhead is
    read against the plain kernel as the GPU runs at that moment."""
    from triton.profiler.hooks.instrumentation import InstrumentationHook

    inst, plain = [], []
    for _ in range(ADJACENT_PAIRS):
        v.use(mod)
        hook = InstrumentationHook(mode) if mode is not None else None
        if hook is not None:
            hook.activate()
        try:
            inst.append(_bench(lambda: v.kmod.launch(v.big)))
        finally:
            if hook is not None:
                hook.deactivate()
            v.use(v.plain)
        plain.append(_bench(lambda: v.kmod.launch(v.big)))
    return statistics.median(inst), statistics.median(plain)


FLOOR_SLACK = 0.02     # a run within this of its partitions' one-region floor is not split or re-made


def subset_runs(v: Variant, a: GluonProfileOptions, plain_ms: float, reference: Any, keep: Path | None,
                t_end: float, say: Callable[[str], None] = print, journal: Journal | None = None) -> list[dict[str, Any]]:
    """The planned subset runs; while time lasts, a run over the overhead target (and over its partitions' floor)
    is split in two and rerun, and a tile-sampled run of one region over it is made again recording half as many
    tiles (``every`` doubled, to ``max_every``). ``journal``: where the runs are kept as they end, and the runs
    made before are read from; the runs left when time is out stay in it, to be made by the next command."""
    j = journal or Journal(None, {})
    planned = [anchors(v.ks)] if a.loops_only else plan(v.ks, v.iterations, a.per_run, v.capacity)
    queue = [(tuple(n), int(e)) for n, e in j.get("queue")] if j.get("queue") is not None else \
        [(names, a.every) for names in planned]
    done: list[dict[str, Any]] = list(j.get("done") or [])
    floors: dict[str, float] = dict(j.get("floors") or {})
    k = len(done)
    while queue:
        if time.time() > t_end + a.budget:      # twice the budget: the rest is left unmeasured, and said
            again = " (kept: the same command again makes them)" if j.path is not None else ""
            say(f"{v.meta['label']}: out of time, {len(queue)} runs not made{again}")
            return done + [{"label": f"run{k + i}", "regions": list(r), "error": "not run: out of time"}
                           for i, (r, _) in enumerate(queue)]
        names, every = queue.pop(0)
        try:
            r = traced_run(v, names, f"run{k}", reference, keep, a.buffer == "shared", every)
        except Exception as e:   # noqa: BLE001 - one run lost, not the variant: said, and the next runs
            v.use(v.plain)
            say(f"{v.meta['label']} run{k}: FAILED {type(e).__name__}: {str(e)[:300]}")
            r = {"label": f"run{k}", "regions": list(names), "error": f"{type(e).__name__}: {e}"[:500]}
        else:
            r["overhead"] = r["instrumented_ms"] / r["plain_adjacent_ms"]
            r["overhead_vs_first_plain"] = r["instrumented_ms"] / plain_ms
            say(run_line(v.meta["label"], r))
            if not a.loops_only:            # the anchor run counts trips: its overhead does not matter
                queue[:0] = _again(r, names, every, a, floors, time.time() < t_end)
        k += 1
        done.append(r)
        j.put(queue=[[list(n), e] for n, e in queue], done=done, floors=floors)
    return done


def _again(r: dict[str, Any], names: tuple[str, ...], every: int, a: GluonProfileOptions, floors: dict[str, float],
           in_time: bool) -> list[tuple[tuple[str, ...], int]]:
    """The runs that replace run ``r`` (marked superseded), if any; ``floors``: each partition's lowest overhead in a
    run of one region, updated by ``r``."""
    parts = list(r["summary"]["partitions"])
    floor = max((floors.get(p, 0.0) for p in parts), default=0.0)     # known before this run
    if len(names) == 1:
        for p in parts:
            floors[p] = min(floors.get(p, r["overhead"]), r["overhead"])
    if not in_time or r["overhead"] <= max(a.max_overhead, floor + FLOOR_SLACK):
        return []
    if len(names) > 1:
        r["superseded"] = True
        return [(names[0::2], every), (names[1::2], every)]     # each half still spread over the loop
    if 1 < every and 2 * every <= a.max_every:     # tile-sampled runs only: ``every`` = 1 asked for all
        r["superseded"] = True
        return [(names, 2 * every)]
    return []


def profile_variant(directory: Path, a: GluonProfileOptions, kernel_file: str | Path, meta: dict[str, Any],
                    say: Callable[[str], None] = print) -> dict[str, Any]:
    """Profile the generated kernel in ``directory`` (``kernel_gluon.py``, ``gluon.json``) in place of ``meta["jit"]``
    of ``kernel_file``; ``meta`` names it (``label``, ``kernel_file`` as recorded, ``jit``). With ``a.journal``, the
    runs made by an earlier command with the same key are not made again; the journal goes once every run is made."""
    t_end = time.time() + a.budget
    keep = a.keep_traces
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="twill-gluon-profile-") as tmp:
        v = Variant(directory, Path(tmp), kernel_file, meta)
        plain_ms, reference = plain_timing(v)
        say(f"{v.meta['label']}: plain {plain_ms:.4f} ms; {len(v.ks.scopes)} regions in "
            f"{len(v.ks.partitions)} partitions (first warps {[p.first_warp for p in v.ks.partitions]}); "
            f"{v.iterations} iterations traced; {v.capacity(1)} records per warp with one warp sampled")
        j = Journal(a.journal, journal_key(v, a), say)
        if j.get("loops_made"):
            loops = j.get("loops")
        else:
            try:
                loops = [_loop_run(v, names, reference, keep, say) for names in loop_runs(v.ks)]
            except EmptyTrace:
                reference = trace_timed_problem(v, say)
                loops = [_loop_run(v, names, reference, keep, say) for names in loop_runs(v.ks)]
        j.put(loops=loops, loops_made=True)
        single = j.get("single") if j.get("single_made") or a.loops_only else _single(v, a, reference, keep, say)
        j.put(single=single, single_made=True)
        runs = subset_runs(v, a, plain_ms, reference, keep, t_end, say, j)
        v.use(v.plain)
        plain_after = _bench(lambda: v.kmod.launch(v.big))
    if not any(r.get("error") == "not run: out of time" for r in runs):
        j.finish()
    return report(v, plain_ms, plain_after, single, runs, *(loops + [None, None])[:2])


def journal_key(v: Variant, a: GluonProfileOptions) -> dict[str, Any]:
    """What a kept profile's runs depend on: the generated source, the kernel file, the options, the GPU, Triton."""
    import torch
    import triton

    kfile = Path(str(v.meta["kernel_file"]))
    return {"source_sha256": hashlib.sha256(v.source.encode()).hexdigest(),
            "kernel_file_sha256": hashlib.sha256(kfile.read_bytes()).hexdigest() if kfile.exists() else None,
            "options": a.key(), "gpu": torch.cuda.get_device_name(), "triton": triton.__version__}


def trace_timed_problem(v: Variant, say: Callable[[str], None]) -> Any:
    """Trace at the timed problem from now on, where the traced one recorded nothing: online_softmax's ``SMALL`` (8
    rows of 1000, one partial block) runs one iteration a loop, and the kernel's guard (``twill_n >= 2``) takes its
    unpipelined loop, which holds no record (run 184: an empty trace, Proton silent). Returns the new reference."""
    import torch

    say(f"{v.meta['label']}: nothing recorded at the traced problem {v.traced} (its launch never reaches the pipelined "
        f"loop); traced at the timed problem {v.timed} instead")
    v.traced, v.small = dict(v.timed), v.big
    it = getattr(v.kmod, "loop_iterations", None)
    v.iterations = int(it(**v.traced)) if callable(it) else 256
    v.use(v.plain)
    out = v.kmod.launch(v.small)
    torch.cuda.synchronize()
    return out.clone() if hasattr(out, "clone") else out


def loop_runs(ks: KernelScopes) -> list[tuple[str, ...]]:
    """The loop runs: partition 0's main loop alone, then, where the kernel has workers, every partition's. Records
    in a worker make Proton pass its buffer's state to every worker, which costs registers across their loops
    (compiled for sm_90: the FA backward's consumers 12 -> 32 spill instructions a trip, the FA forward's 0 -> 2); in
    the default partition alone they leave every loop's code as the plain kernel's (the same instructions, the same
    spills), so the first run is the period at the lowest overhead and the second each partition's loop beside it."""
    names = ks.loop_names()
    return [names[:1]] + ([names] if len(names) > 1 else [])


def _loop_run(v: Variant, names: tuple[str, ...], reference: Any, keep: Path | None,
              say: Callable[[str], None]) -> dict[str, Any] | None:
    """A loop run: main loops timed whole, no record inside a loop (records inside one are fences ptxas schedules
    around: the FA forward's consumers lose the overlap of a row sum with the next exp2 and its barrier), so its
    overhead is the records' at the loops' ends alone (``gluon_trace.loop_periods`` reads its periods). Global
    buffer: Proton's shared one costs registers in every partition. None when it fails (said)."""
    label = "loops" if len(names) > 1 else "loops0"
    try:
        r = traced_run(v, names, label, reference, keep, shared=False)
    except EmptyTrace:
        v.use(v.plain)
        if v.traced != v.timed:
            raise
        say(f"{v.meta['label']} {label}: FAILED: no record at {v.traced} either (the loop never ran its recorded path)")
        return None
    except Exception as e:   # noqa: BLE001 - the loop run is lost, not the profile
        v.use(v.plain)
        say(f"{v.meta['label']} {label}: FAILED {type(e).__name__}: {str(e)[:300]}")
        return None
    r["overhead"] = r["instrumented_ms"] / r["plain_adjacent_ms"]
    say(f"{v.meta['label']} {label}: {', '.join(names)} timed whole, overhead x{r['overhead']:.3f}, "
        f"{r['summary']['events']} records, dropped {r['proton_dropped']}")
    return r


def _single(v: Variant, a: GluonProfileOptions, reference: Any, keep: Path | None,
            say: Callable[[str], None]) -> dict[str, Any] | None:
    """The run timing every region at once, for the comparison (None: not asked for, or failed)."""
    if a.no_single:
        return None
    try:
        single = traced_run(v, v.ks.names(), "single", reference, keep, a.buffer == "shared", a.every)
    except Exception as e:   # noqa: BLE001 - the comparison is lost, not the subset runs
        v.use(v.plain)
        say(f"{v.meta['label']} single: FAILED {type(e).__name__}: {str(e)[:300]}")
        return None
    single["overhead"] = single["instrumented_ms"] / single["plain_adjacent_ms"]
    say(run_line(v.meta["label"], single))
    return single


def report(v: Variant, plain_ms: float, plain_after: float, single: dict[str, Any] | None,
           runs: list[dict[str, Any]], loops: dict[str, Any] | None = None,
           loops_all: dict[str, Any] | None = None) -> dict[str, Any]:
    """The variant's JSON: every run, the combination of the subset runs, and its comparison."""
    final = [r for r in runs if not r.get("superseded") and "error" not in r]
    comb = combine([r["summary"] for r in final], [r["label"] for r in final])
    for r in [x for x in runs if "error" not in x] + ([single] if single else []):
        r["overhead"] = round(r["instrumented_ms"] / r["plain_adjacent_ms"], 4)   # the plain kernel timed beside it
    out: dict[str, Any] = {
        "label": v.meta["label"], "kernel_file": v.meta["kernel_file"], "timed_problem": v.timed,
        "traced_problem": v.traced, "iterations": v.iterations, "plain_ms": [plain_ms, plain_after],
        "partitions": [vars(p) for p in v.ks.partitions], "max_shared": v.max_shared, "shared_used": v.shared_used,
        "predicted_cycles_per_iteration": predicted_cycles(v.source, v.gjson),
        "runs": runs, "combined": comb, "single": single,
        "max_overhead_of_runs": max((r["overhead"] for r in final), default=None),
        "max_loop_cost_of_runs": max((q["loop_cost"] for r in final for q in r["summary"]["partitions"].values()
                                      if q.get("loop_cost")), default=None),
        "tiles_recorded": sorted({f"1 in {r.get('every', 1)}" for r in final}),
        "failed_runs": [r["label"] for r in runs if "error" in r],
        "unmeasured": [n for n in v.ks.names() if n not in comb["regions"]],
        "all_complete": all(p["complete"] for r in final for p in r["summary"]["partitions"].values())
        and not any(r["proton_dropped"] for r in final),
    }
    if single is not None:
        out["single_vs_combined"] = compare(comb, single["summary"])
    counted = [r["summary"] for r in final] + ([single["summary"]] if single else [])
    for key, lr in (("loop_run", loops), ("loop_run_all", loops_all)):
        if lr is not None:
            lr["overhead"] = round(lr["instrumented_ms"] / lr["plain_adjacent_ms"], 4)
            out[key] = {"loops": lr["regions"], "overhead": lr["overhead"], "proton_dropped": lr["proton_dropped"],
                        "every_record_kept": not lr["proton_dropped"] and all(
                            p.get("loops_by_cta") for p in lr["summary"]["partitions"].values()),
                        "periods": loop_periods(lr["summary"], counted), "run": lr}
    return out


def predicted_cycles(source: str, gjson: dict[str, Any]) -> float | None:
    """The schedule's cycles per iteration, as the generated kernel's docstring states it (else the
    last candidate with the chosen number of sub-tiles in ``gluon.json``)."""
    m = re.search(r"([\d.]+) cycles per iteration predicted", source)
    if m:
        return float(m.group(1))
    g = gjson.get("gluon", {})
    cands = [c for c in g.get("candidates") or [] if c.get("subtiles") == g.get("chosen") and c.get("iteration_cycles")]
    return cands[-1]["iteration_cycles"] if cands else None


def run_line(label: str, r: dict[str, Any]) -> str:
    parts = ", ".join(f"p{p}: period {s['period_cycles']}, timed {s['timed_cycles_per_iteration']}"
                      + (f", loop x{s['loop_cost']}" if s.get("loop_cost") else "")
                      + f"{'' if s['complete'] else ' INCOMPLETE'}" for p, s in r["summary"]["partitions"].items())
    drop = " RECORDS DROPPED" if r["proton_dropped"] else ""
    return (f"{label} {r['label']}: {len(r['regions'])} regions, warps {r['sampling']}, {r['buffer'][0]} buffer, "
            + (f"1 tile in {r['every']}, " if r.get("every", 1) > 1 else "") +
            f"{r['instrumented_ms']:.4f} ms ({r.get('overhead', 0):.3f}x plain){drop}; {parts} "
            f"[{r['seconds']} s]")


def table(res: dict[str, Any]) -> str:
    """Per partition, per region: mean cycles per iteration (combined), and the single run beside it."""
    lines = [f"{res['label']}: plain {res['plain_ms'][0]:.4f}/{res['plain_ms'][1]:.4f} ms, worst run overhead "
             f"{res['max_overhead_of_runs']}, single-run overhead {(res['single'] or {}).get('overhead')}, "
             f"worst cost to a timed loop {res.get('max_loop_cost_of_runs')} (tiles recorded: "
             f"{', '.join(res.get('tiles_recorded') or ['all'])}), "
             f"every record kept: {res['all_complete']}; predicted {res['predicted_cycles_per_iteration']} "
             f"cycles/iteration"]
    for key in ("loop_run", "loop_run_all"):
        lr = res.get(key)
        if lr:
            per = ", ".join(f"p{p}: {v['cycles_per_iteration']} ({v['ctas']} CTAs)" for p, v in lr["periods"].items())
            lines.append(f"  loop run of {', '.join(lr['loops'])} (no record inside a loop): overhead x{lr['overhead']}, "
                         f"every record kept: {lr['every_record_kept']}; cycles per iteration {per}")
    cmp = res.get("single_vs_combined") or {"regions": {}, "partitions": {}}
    for p, s in res["combined"]["partitions"].items():
        c = cmp["partitions"].get(p, {})
        lines.append(f"  partition {p}: period {s['period_cycles']} (single {c.get('period_single')}), timed "
                     f"{s['timed_cycles_per_iteration']} (net {s['net_timed_cycles_per_iteration']}, single "
                     f"{c.get('timed_single')}, rel {c.get('timed_rel')})")
        for n, r in res["combined"]["regions"].items():
            if str(r["partition"]) == p:
                sr = cmp["regions"].get(n, {})
                lines.append(f"    {n:40} {r['cycles_per_iteration']!s:>9} (net "
                             f"{r['net_cycles_per_iteration']!s:>8}) single {sr.get('single')!s:>9} run {r['run']}")
    return "\n".join(lines)


