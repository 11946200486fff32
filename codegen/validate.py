"""``twill validate``'s library: a twill schedule on this machine's GPU against Triton's own.

1. Correctness: fresh random inputs (two seeds, the kernel file's small and real problem sizes), every
   ``torch.empty`` of the launch filled with NaN (so an output element the kernel never writes shows),
   the scheduled kernel against the kernel file's ``reference`` and against the same kernel unscheduled.
2. Speed at the kernel's real problem size (do_bench medians): Triton's default configuration,
   Triton's best of a few ``num_stages`` / ``num_warps``, and the twill schedule at each streaming
   depth that fits (paper 5.3: the exposed depth is the tuner's pick).
3. Re-profile (``profiling.kernel``): the measured per-iteration time, where it goes (op issue, waits,
   records), and the schedule's critical path measured in the trace, against the prediction.

Writes ``validation.json`` (schema ``twill.validation/1``; the fields the HTML view draws:
``correctness``, ``speed``, ``predicted_iteration_cycles``, ``measured_iteration_cycles``,
``critical_path``, ``tflops``, ``baseline_tflops``, ``speedup``) and ``schedule.html`` with it drawn.
Imports no solver.
"""
from __future__ import annotations

import contextlib
import graphlib
import json
import os
import shutil
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from twill.errors import InputError
from twill.graph.model import Dep, LoopGraph
from twill.schedule.model import Schedule

DEFAULT_SWEEP = ({"num_stages": 2}, {"num_stages": 3}, {"num_stages": 4}, {"num_warps": 4, "num_stages": 3})
TOLERANCE = 1e-2          # relative error (Frobenius) against the reference; a kernel may set VALIDATE_TOL
HOOKS = ("make_inputs(**problem)", "launch(inputs, **config)", "reference(inputs)")


def kernel_hooks(path: str) -> Any:
    """The kernel file as a module, refused in one line when it lacks what validation launches it with:
    ``make_inputs``, ``launch`` and ``reference`` (see ``kernels/gemm.py``)."""
    from profiling.kernel import kernel_module

    mod = kernel_module(path)
    if not callable(getattr(mod, "reference", None)):
        raise InputError("kernel file has no reference to validate against", where=path,
                         expected="a function reference(inputs) beside make_inputs and launch (see kernels/gemm.py)",
                         found="none")
    return mod


def load_schedule_dir(schedule: str, kernel_path: str, arch: str) -> tuple[dict[str, Any], str, str]:
    """(schedule.json, pre-pipeline TTGIR, annotated TTGIR) of a ``twill optimize`` output directory,
    refused (one line) when it was made for another kernel, arch or version of the source."""
    import hashlib

    d = Path(schedule)
    if d.is_file():
        d = d.parent
    need = [d / n for n in ("schedule.json", "pre_pipeline.ttgir", "annotated.ttgir")]
    missing = [p.name for p in need if not p.is_file()]
    if missing:
        raise InputError("not a twill optimize output directory", where=str(d),
                         expected="schedule.json, pre_pipeline.ttgir and annotated.ttgir", found="no " + ", ".join(missing))
    try:
        sched = json.loads(need[0].read_text())
    except json.JSONDecodeError as e:
        raise InputError("malformed schedule JSON", where=f"{need[0]}:{e.lineno}", expected="twill.schedule/1",
                         found=e.msg) from None
    sha = hashlib.sha256(Path(kernel_path).read_bytes()).hexdigest()
    if sched.get("arch") not in (arch, None) and {sched.get("arch"), arch} != {"h100", "h200"}:
        raise InputError("schedule is for another GPU", where=str(need[0]), expected=arch, found=str(sched.get("arch")))
    if sched.get("source_sha256") and sched["source_sha256"] != sha:
        raise InputError("schedule is of another kernel source", where=str(need[0]),
                         expected=f"source sha256 {sha[:12]} ({kernel_path})",
                         found=f"{str(sched['source_sha256'])[:12]} (kernel {sched.get('kernel')})")
    if not isinstance(sched.get("graph"), dict):
        raise InputError("schedule has no embedded graph", where=str(need[0]),
                         expected="a schedule.json written by twill optimize", found="no graph")
    return sched, need[1].read_text(), need[2].read_text()


# ----------------------------------------------------------------------------------------------
# The critical path: predicted by the schedule, measured in a re-profile's trace
# ----------------------------------------------------------------------------------------------
def _compute_deps(g: LoopGraph) -> tuple[list[str], list[Dep]]:
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
    compute, deps = _compute_deps(g)
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
    from twill.graph.analysis import recurrences

    recs = [r for r in recurrences(g) if set(r.ops) <= set(compute) and r.bound is not None]
    if not recs:
        return ()
    return max(recs, key=lambda r: (r.delay or 0) / r.distance).deps


class _Index:
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


def _pair_gaps(ix: _Index, dep: Dep, stage: Mapping[str, int], windows: bool, ovh: int = 0
               ) -> tuple[list[int], dict[str, list[int]], list[str]]:
    """Start-to-start cycles from ``dep.src`` of iteration i to ``dep.dst`` of iteration i + distance,
    per instance; the ``wait:*`` cycles inside each gap on the same warp (less ``ovh``, one record
    pair's cost); the regions issued in between, in the first instance.

    The k-th recorded instance of an op at stage st belongs to iteration k + max_stage - st (the
    pipeliner's prologue copies carry no records), so pairs are k and k + distance + st(dst) - st(src)."""
    import bisect

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
    ``stage`` the stage of each op in the profiled placement (``codegen.annotate.placement``);
    ``overhead_ratio`` (instrumented / plain kernel time) gives an estimate of the uninstrumented path
    (records slow issue-bound hops, not the ones an asynchronous op's latency bounds: an estimate).

    Examples
    --------
    >>> cp = measured_critical_path(load_trace(path), g, s, 9.7154, placement(g, s).stage_map)  # doctest: +SKIP
    >>> cp["predicted_cycles"], cp["measured_cycles"]                                          # doctest: +SKIP
    (2603.6, 3285.5)
    """
    chain = predicted_critical_path(g, s)
    if not chain or not events:
        return None
    from profiling.replay import record_overhead

    st = dict(stage or {})
    start = s.start_map
    ix = _Index(events)
    ovh = record_overhead(list(events))
    hops = []
    for d in chain:
        gaps, waits, between = _pair_gaps(ix, d, st, windows=True, ovh=ovh)
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
    compute, deps = _compute_deps(g)
    med: dict[tuple[str, str], float] = {}
    for d in deps:
        gaps, _, _ = _pair_gaps(ix, d, st, windows=False)
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


# ----------------------------------------------------------------------------------------------
# The GPU run
# ----------------------------------------------------------------------------------------------
def _rel_err(x: Any, ref: Any) -> float:
    return ((x.float() - ref.float()).norm() / ref.float().norm()).item()


@contextlib.contextmanager
def poisoned_outputs() -> Iterator[None]:
    """Within the block every ``torch.empty`` (the outputs a launch allocates) is filled with NaN, so
    an element the kernel never writes shows as NaN (torch's deterministic fill of uninitialised memory)."""
    import torch
    import torch.utils.deterministic as det

    mode, warn, fill = (torch.are_deterministic_algorithms_enabled(),
                        torch.is_deterministic_algorithms_warn_only_enabled(), det.fill_uninitialized_memory)
    torch.use_deterministic_algorithms(True, warn_only=True)
    det.fill_uninitialized_memory = True
    try:
        yield
    finally:
        det.fill_uninitialized_memory = fill
        torch.use_deterministic_algorithms(mode, warn_only=warn)


def _out(x: Any) -> Any:
    return x[0] if isinstance(x, (tuple, list)) else x


def validate(path: str, arch: str, schedule: str, out_dir: str, *, profile: bool = True,
             depths: tuple[int, ...] = (1, 2, 3), say: Any = print) -> dict[str, Any]:
    """Validate ``schedule`` (a ``twill optimize`` output directory) for kernel ``path`` on this GPU;
    write ``out_dir``/validation.json (and schedule.html, profile/) and return the record.

    Bad input (a kernel file without ``reference``, a schedule of another kernel or GPU) is refused
    before any GPU work; without a GPU, one ``DeviceError`` line.

    Examples
    --------
    >>> r = validate("kernels/gemm.py", "h200", "bench/results/schedules/gemm-h200", "out")  # doctest: +SKIP
    >>> r["correctness"]["pass"], r["speed"]["twill_depth"], r["critical_path"]["nodes"]     # doctest: +SKIP
    (True, 3, ['dot0_acc', 'dot0_acc'])
    """
    from profiling.run import require_gpu

    mod = kernel_hooks(path)                                            # bad input first, GPU or not
    sched, pre, annotated = load_schedule_dir(schedule, path, arch)
    jit = getattr(mod, str(sched.get("kernel")), None)
    if jit is None:
        raise InputError("kernel not found in the file", where=path, expected=str(sched.get("kernel")), found="none")
    torch = require_gpu()
    fresh = not os.path.exists(out_dir)
    try:
        result, prof = _measure(torch, mod, jit, sched, pre, annotated, path, arch, schedule, out_dir,
                                profile=profile, depths=depths, say=say)
        os.makedirs(out_dir, exist_ok=True)
        _write(os.path.join(out_dir, "validation.json"), json.dumps(result, indent=1) + "\n")
        _write_page(out_dir, sched, prof, result)
    except BaseException:
        if fresh:                              # nothing half-written left behind
            shutil.rmtree(out_dir, ignore_errors=True)
        raise
    return result


def _measure(torch: Any, mod: Any, jit: Any, sched: dict[str, Any], pre: str, annotated: str, path: str, arch: str,
             schedule: str, out_dir: str, *, profile: bool, depths: tuple[int, ...], say: Any
             ) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The GPU part of ``validate``: (the validation record, the re-profile or None)."""
    import triton

    from codegen.annotate import annotate_ttgir, placement
    from codegen.compile import scheduled
    from twill.graph.io import graph_from_dict

    g, s = graph_from_dict(sched["graph"]), Schedule.from_dict(sched)
    scale = float((sched.get("normalization") or {}).get("scale") or sched.get("time_unit_cycles") or 1.0)
    problem = dict(getattr(mod, "PROBLEM", {}) or {})
    small = dict(getattr(mod, "SMALL", None) or problem)
    tol = float(getattr(mod, "VALIDATE_TOL", TOLERANCE))
    flops = getattr(mod, "flops", None)
    result: dict[str, Any] = {"schema": "twill.validation/1", "kernel": sched.get("kernel"), "arch": arch,
                              "gpu": torch.cuda.get_device_name(), "triton_version": triton.__version__,
                              "torch_version": torch.__version__, "schedule": str(schedule), "problem": problem,
                              "predicted_iteration_cycles": (sched.get("predicted") or {}).get("iteration_cycles")}
    # A warp-specialized schedule runs as compiled offline: the extraction's num_warps (Triton gives
    # every partition that many), the buffer depth between partitions that fitted, its tile sizes.
    ws_launch = launch_config(sched, mod)
    if ws_launch:
        result["launch"] = ws_launch
        say(f"warp-specialized schedule: launched with {', '.join(f'{k}={v}' for k, v in ws_launch.items())} "
            "(the unscheduled kernel too, for the comparison)")
    # 1. Correctness: against the reference and against the same kernel with Triton's own schedule.
    checks = []
    for seed in (11, 12):
        for size in ({**small}, {**problem}):
            inp = mod.make_inputs(**size, seed=seed)
            ref = mod.reference(inp)
            with poisoned_outputs():
                with scheduled(annotated, jit):
                    got = _out(mod.launch(inp, **ws_launch))
                plain = _out(mod.launch(inp, **ws_launch))
            torch.cuda.synchronize()
            nan = bool(torch.isnan(got.float()).any().item())
            e_ref, e_plain = _rel_err(got, ref), _rel_err(got, plain)
            checks.append({"seed": seed, "problem": size, "rel_err_reference": e_ref, "rel_err_unscheduled": e_plain,
                           "nan": nan, "pass": (not nan) and e_ref < tol and e_plain < tol})
            del inp, ref, got, plain
    result["correctness"] = {
        "pass": all(c["pass"] for c in checks), "tolerance": tol, "poison": "NaN (torch.empty filled)",
        "max_rel_err_reference": max(c["rel_err_reference"] for c in checks),
        "max_rel_err_unscheduled": max(c["rel_err_unscheduled"] for c in checks), "checks": checks}
    c = result["correctness"]
    say(f"correctness: {'pass' if c['pass'] else 'FAIL'} (max relative error {c['max_rel_err_reference']:.2e} "
        f"against the reference, {c['max_rel_err_unscheduled']:.2e} against the unscheduled kernel; tolerance {tol:g})")
    # 2. Speed at the real problem size: Triton's default, a sweep, the schedule at each streaming depth.
    inp = mod.make_inputs(**problem, seed=13)
    fl = flops(**problem) if callable(flops) else None

    def rate(ms: float) -> float:
        return round(fl / ms * 1e-9, 1) if fl else round(ms, 4)

    def better(a: float, b: float) -> bool:
        return a > b if fl else a < b

    unit = "TFLOP/s" if fl else "ms"
    speed: dict[str, Any] = {"unit": unit}
    speed["triton_default"] = rate(triton.testing.do_bench(lambda: mod.launch(inp)))
    best = ("default", speed["triton_default"])
    for cfg in getattr(mod, "VALIDATE_CONFIGS", DEFAULT_SWEEP):
        key = "triton_" + "_".join(f"{k}{v}" for k, v in cfg.items())
        try:
            speed[key] = rate(triton.testing.do_bench(lambda: mod.launch(inp, **cfg)))
        except Exception as e:            # a config Triton cannot run (shared memory): record, go on
            speed[key] = f"failed: {type(e).__name__}"
            continue
        if better(speed[key], best[1]):
            best = (key, speed[key])
    speed["triton_best"], speed["triton_best_config"] = best[1], best[0]
    twill_best: tuple[int | None, float | None] = (None, None)
    if ws_launch:
        # The depth of a warp-specialized loop is its num_stages, fixed when it was compiled offline;
        # the same launch without the schedule is Triton's own code at that configuration.
        speed["triton_same_config"] = rate(triton.testing.do_bench(lambda: mod.launch(inp, **ws_launch)))
        depths = ()
        key = f"twill_d{ws_launch.get('num_stages')}"
        try:
            with scheduled(annotated, jit):
                mod.launch(inp, **ws_launch)
                twill_best = (int(ws_launch["num_stages"]),
                              rate(triton.testing.do_bench(lambda: mod.launch(inp, **ws_launch))))
            speed[key] = twill_best[1]
        except Exception as e:            # out of resources on this GPU, a compile error: say why
            speed[key] = f"failed: {str(e).splitlines()[0][:160] if str(e) else type(e).__name__}"
    for d in depths:
        try:
            ann = annotate_ttgir(pre, g, s, distance=d)
            with scheduled(ann, jit):
                mod.launch(inp)
                v = rate(triton.testing.do_bench(lambda: mod.launch(inp)))
        except Exception as e:            # a depth that does not fit (CompileError, out of resources): say why
            speed[f"twill_d{d}"] = f"failed: {str(e).splitlines()[0][:160] if str(e) else type(e).__name__}"
            continue
        speed[f"twill_d{d}"] = v
        if twill_best[1] is None or better(v, twill_best[1]):
            twill_best = (d, v)
    speed["twill"], speed["twill_depth"] = twill_best[1], twill_best[0]
    result["speed"] = speed
    if twill_best[1] is not None and fl:
        result["tflops"], result["baseline_tflops"] = twill_best[1], speed["triton_default"]
        result["speedup"] = round(twill_best[1] / speed["triton_default"], 4)
        result["speedup_vs_best"] = round(twill_best[1] / best[1], 4)
    say(f"speed ({unit}): Triton default {speed['triton_default']}, Triton best {best[1]} ({best[0]}), "
        f"twill {twill_best[1]} (streaming depth {twill_best[0]})")
    del inp
    # 3. Re-profile what was fastest (the schedule at the best depth) and compare with the prediction.
    prof = None
    if profile and ws_launch:
        result["profile_skipped"] = ("warp-specialized loop: twill profile inserts its records into the single "
                                     "loop, before Triton splits it into partitions; not supported")
        say(f"re-profile skipped: {result['profile_skipped']}")
    elif profile:
        from profiling.kernel import ProfileOptions, profile_kernel
        from profiling.trace import load_trace

        target = str(schedule)
        if twill_best[0] is not None:         # beside, never over, the schedule's own annotated.ttgir
            os.makedirs(out_dir, exist_ok=True)
            target = os.path.join(out_dir, f"annotated.d{twill_best[0]}.ttgir")
            Path(target).write_text(annotate_ttgir(pre, g, s, distance=twill_best[0]))
        prof_dir = os.path.join(out_dir, "profile")
        prof = profile_kernel(path, arch, prof_dir,
                              ProfileOptions(buffer_type="global", buffer_size=1 << 16, schedule=target), say=say)
        it = (prof.get("iteration") or {}).get("median_cycles")
        pred = result["predicted_iteration_cycles"]
        ratio = (prof.get("overhead") or {}).get("ratio")
        result["measured_iteration_cycles"] = it
        result["iteration_error"] = round((it - pred) / pred, 4) if it and pred else None
        result["profile_overhead"] = ratio
        if it and ratio:
            # Records slow the loop; the plain kernel's iteration, estimated from the two timings.
            est = round(it / ratio, 1)
            result["measured_iteration_cycles_uninstrumented"] = est
            result["iteration_error_uninstrumented"] = round((est - pred) / pred, 4) if pred else None
        result["iteration_breakdown"] = iteration_breakdown(prof)
        cyc = sched.get("cycles") or {}
        result["nodes"] = {n: {"predicted_cycles": cyc.get(n), "measured_median_cycles": v["median_cycles"]}
                           for n, v in prof["nodes"].items()}
        result["waits"] = {n: v["median_cycles"] for n, v in prof["waits"].items()}
        trace = Path(prof_dir) / "trace.chrome_trace"
        if trace.is_file():
            stage = placement(g, s, distance=twill_best[0]).stage_map
            result["critical_path"] = measured_critical_path(load_trace(trace), g, s, scale, stage, ratio)
    return result, prof


def launch_config(sched: dict[str, Any], mod: Any) -> dict[str, Any]:
    """Launch options of a warp-specialized schedule (``{}`` for any other): num_warps and the
    constexprs of the extraction that the kernel's ``default_config`` names, and num_stages = the
    depth chosen when its partitions were compiled offline (``codegen.warps.fitting_depth``).

    Examples
    --------
    >>> launch_config({"warp_specialization": {"warp_specialized": True, "num_stages": 1},
    ...                "graph": {"meta": {"num_warps": 4, "constexprs": {"BLOCK_N": 128, "HEAD_DIM": 128}}}},
    ...               type("M", (), {"default_config": staticmethod(lambda: {"BLOCK_N": 64, "num_warps": 8})}))
    {'num_warps': 4, 'num_stages': 1, 'BLOCK_N': 128}
    """
    ws = sched.get("warp_specialization") or {}
    if not ws.get("warp_specialized"):
        return {}
    meta = (sched.get("graph") or {}).get("meta") or {}
    cfg: dict[str, Any] = {"num_warps": int(meta["num_warps"])}
    if ws.get("num_stages") is not None:
        cfg["num_stages"] = int(ws["num_stages"])
    known = getattr(mod, "default_config", None)
    names = set(known()) if callable(known) else set()
    cfg.update({k: v for k, v in (meta.get("constexprs") or {}).items() if k in names})
    return cfg


def _write(path: str, text: str) -> None:
    tmp = path + ".tmp"
    Path(tmp).write_text(text)
    os.replace(tmp, path)


def _write_page(out_dir: str, sched: dict[str, Any], prof: dict[str, Any] | None, result: dict[str, Any]) -> None:
    """schedule.html beside validation.json, the schedule drawn with the re-profile and the validation."""
    from twill.view import write_html

    write_html(Path(out_dir) / "schedule.html", sched, None, prof, result)
