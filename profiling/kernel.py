"""``twill profile``'s library: profile one kernel file on this machine's GPU, end to end.

Extract the loop graph offline, insert a Proton region per graph node at the TTGIR level (and one
per pipeliner-made wait), launch the kernel on a traced problem under a Proton session, time the
plain and the instrumented kernel at the real problem size, replay the trace (record overhead
subtracted, waits apart from issues, clock wraps reported), and write the profile (schema
``twill.profile/1``), the raw chrome trace and a Perfetto trace. Imports no solver.

A kernel file provides ``make_inputs(**problem)`` and ``launch(inputs, **config)``; optionally
``PROBLEM`` (the timed size), ``PROFILE_PROBLEM`` (the traced size, smaller so that Proton's buffer
holds every record) and ``loop_iterations(**problem)`` (iterations of the main loop per CTA, to count
lost records).
"""
from __future__ import annotations

import importlib.util
import json
import math
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from profiling.insert import find_breaking_regions
from profiling.profile import make_profile, to_perfetto
from profiling.replay import replay
from profiling.run import profile_run, require_gpu
from profiling.subsets import EVERY, LIMIT, combine, measure_all, run_entry, split_names
from profiling.trace import load_trace
from twill.errors import InputError, ProfileError
from twill.graph.extract import graph_for_file
from twill.ir.triton_hooks import PassPlan
from twill.machine.model import Machine
from twill.util import atomic_write, sha256

RECORD_BYTES = 8          # one Proton record: a 32-bit tag and a 32-bit clock word


@dataclass(frozen=True)
class ProfileOptions:
    sampling: str = "0,4"          # warps recorded per CTA ("all" for every warp)
    buffer_type: str = "shared"    # Proton's record buffer: shared | global
    buffer_size: int = 0           # bytes; 0: Proton's default
    schedule: str | None = None    # a twill schedule directory (annotated.ttgir) to profile instead of Triton's


def kernel_module(path: str) -> Any:
    """The kernel file as a module (it needs the GPU's torch); one InputError line when it lacks the
    helpers the profiler launches it with."""
    p = Path(path)
    if not p.is_file():
        raise InputError("no such kernel file", where=path, expected="a kernel .py file", found="nothing")
    root = str(p.resolve().parents[1])
    if root not in sys.path:
        sys.path.insert(0, root)
    spec = importlib.util.spec_from_file_location(f"twill_profile_{p.stem}", p)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)        # type: ignore[union-attr]
    missing = [n for n in ("make_inputs", "launch") if not callable(getattr(mod, n, None))]
    if missing:
        raise InputError("kernel file cannot be launched by the profiler", where=path,
                         expected="functions make_inputs(**problem) and launch(inputs, **config)",
                         found="no " + ", ".join(missing))
    return mod


def overflow_warning(lost: dict[str, Any] | None, sampled_warps: int, buffer_type: str) -> str | None:
    """One line when Proton's circular buffer wrapped: the records lost and the option that fixes it."""
    if not lost or lost["records_kept_per_warp"] >= lost["records_expected_per_warp"]:
        return None
    want, kept = lost["records_expected_per_warp"], lost["records_kept_per_warp"]
    size = 1 << math.ceil(math.log2(max(1, want * RECORD_BYTES * max(1, sampled_warps))))
    fix = f"--buffer-size {size}" + ("" if buffer_type == "global" else " --buffer-type global")
    return (f"Proton buffer overflow: {want - kept} of {want} records per warp lost ({lost['units_short']} "
            f"warps short); rerun with {fix}, fewer sampled warps, or a smaller traced problem")


@dataclass(frozen=True)
class Prepared:
    """A kernel file ready to profile: its graph, module, JIT function, inputs at the traced and the timed problem,
    and the loop's iterations per CTA at the traced problem (None: the file does not say)."""

    g: Any
    mod: Any
    jit: Any
    traced: dict[str, Any]
    timed: dict[str, Any]
    small: Any
    big: Any
    iters: int | None
    iters_timed: int | None = None


def prepare(path: str, machine: Machine, opts: ProfileOptions, schedule: PassPlan, check: bool = True) -> Prepared:
    """Extract ``path``'s graph, check offline that it compiles instrumented (``check``: one ProfileError line
    naming the region that breaks it), import it and make its inputs."""
    g, kir = graph_for_file(path, machine.target)
    spec = kir.spec
    assert spec is not None   # a kernel .py: read_kernel specialised it
    mod = kernel_module(path)
    timed = dict(getattr(mod, "PROBLEM", {}) or {})
    traced = dict(getattr(mod, "PROFILE_PROBLEM", None) or getattr(mod, "SMALL", None) or timed)
    if check:
        mode = {"sampling": opts.sampling, "buffer_type": opts.buffer_type, "buffer_size": opts.buffer_size}
        broken = find_breaking_regions(spec, machine.sm, machine.smem_per_cta, g, schedule, **mode)   # offline
        if broken:
            raise ProfileError("kernel fails to compile once instrumented", where=f"{g.name}: region {broken[0][0]}",
                               expected="every region compiles", found=broken[0][1])
    count = getattr(mod, "loop_iterations", None)
    iters = count(**traced) if callable(count) else None
    return Prepared(g, mod, getattr(mod, str(g.get("kernel", g.name)), None), traced, timed,
                    mod.make_inputs(**traced), mod.make_inputs(**timed) if timed else None, iters,
                    count(**timed) if callable(count) and timed else None)


def traced_problem(p: Prepared, every: int) -> tuple[Any, int | None]:
    """The inputs a run recording one iteration in ``every`` traces, and their loop iterations a CTA: the traced
    problem where it leaves each CTA two recorded iterations (one start-to-start gap) or says nothing of its
    iterations, else the timed one (its trace is the larger: every CTA of the real problem)."""
    if every == 1 or p.big is None or p.iters is None or p.iters // every >= 2:
        return p.small, p.iters
    return p.big, p.iters_timed


def _run(p: Prepared, work: str, opts: ProfileOptions, schedule: PassPlan, nodes: tuple[str, ...] | None = None,
         waits: bool | tuple[str, ...] = True, every: int = 1) -> Any:
    """One instrumented run; ``every`` > 1: the loop records one iteration in so many (``traced_problem``)."""
    traced = traced_problem(p, every)[0]
    return profile_run(p.g, lambda: p.mod.launch(traced), (lambda: p.mod.launch(p.big)) if p.big is not None else None,
                       tuple(x for x in (p.jit,) if x is not None), work, schedule=schedule, sampling=opts.sampling,
                       buffer_type=opts.buffer_type, buffer_size=opts.buffer_size, nodes=nodes, waits=waits,
                       every=every)


def profile_kernel(path: str, machine: Machine, out_dir: str, opts: ProfileOptions = ProfileOptions(),
                   say: Any = print, schedule: PassPlan = PassPlan()) -> dict[str, Any]:
    """Profile ``path`` on this GPU; write ``out_dir``/{profile.json, trace.chrome_trace,
    trace.perfetto.json, and proton.log when Proton printed anything} and return the profile.
    ``schedule`` is the plan that applies a twill schedule (``opts.schedule`` names where it came
    from). Needs a CUDA GPU (one DeviceError line otherwise); a failed run leaves no ``out_dir`` behind."""
    require_gpu()
    import triton

    p = prepare(path, machine, opts, schedule)
    g = p.g
    say(f"profiling {g.name} on {machine.name}: traced problem {p.traced}, timed problem {p.timed or p.traced}")
    work = os.path.join(out_dir, "proton")
    fresh = not os.path.exists(out_dir)
    try:
        r = _run(p, work, opts, schedule)
    except BaseException:
        shutil.rmtree(out_dir if fresh else work, ignore_errors=True)     # nothing half-written left behind
        raise
    events = load_trace(r.trace_path)
    rep = replay(events, [x.name for x in r.regions], r.sm_clock_ghz, expected_iters=p.iters)
    overhead = {"plain_ms": r.plain_ms, "instrumented_ms": r.instrumented_ms, "problem": p.timed or p.traced,
                "ratio": (r.instrumented_ms / r.plain_ms) if r.plain_ms and r.instrumented_ms else None}
    sampled = len(r.sampled_warps) or max(1, r.num_warps)
    # Replay counts records against the loop's iterations; Proton reports its own drops even when the
    # kernel file has no loop_iterations, or when whole iterations were lost on every warp alike.
    lost = rep["lost_records"]
    if r.proton_dropped and (not lost or lost["units_short"] == 0):
        rep = {**rep, "lost_records": r.proton_dropped}
    warning = overflow_warning(rep["lost_records"], sampled, opts.buffer_type)
    config = p.mod.default_config(machine.name) if callable(getattr(p.mod, "default_config", None)) else None
    prof = make_profile(g, rep, arch=machine.name, gpu=r.gpu, triton_version=triton.__version__,
                        kernel_source_sha256=sha256(Path(path).read_bytes()), problem=p.traced,
                        launch={"num_warps": r.num_warps, "num_stages": r.num_stages, "config": config,
                                "sampled_warps": list(r.sampled_warps), "buffer_type": opts.buffer_type,
                                "buffer_size": opts.buffer_size, "profile_scratch_size": r.profile_scratch_size,
                                "shared": r.shared},
                        overhead=overhead, schedule=opts.schedule, machine=r.device)
    prof["warnings"] = [warning] if warning else []
    os.makedirs(out_dir, exist_ok=True)
    shutil.copy(r.trace_path, os.path.join(out_dir, "trace.chrome_trace"))
    log = Path(work) / "proton.log"
    if log.is_file() and log.stat().st_size:
        shutil.copy(log, os.path.join(out_dir, "proton.log"))      # Proton's own notices, kept out of the output
    shutil.rmtree(work, ignore_errors=True)
    atomic_write(os.path.join(out_dir, "trace.perfetto.json"), json.dumps(to_perfetto(events, r.sm_clock_ghz)))
    atomic_write(os.path.join(out_dir, "profile.json"), json.dumps(prof, indent=1) + "\n")
    return prof


def profile_subsets(path: str, machine: Machine, out_dir: str, whole: dict[str, Any],
                    opts: ProfileOptions = ProfileOptions(), say: Any = print, schedule: PassPlan = PassPlan(),
                    limit: float = LIMIT) -> dict[str, Any]:
    """The regions of ``whole`` (the profile of the run with every region, ``profile_kernel``'s) measured again in
    runs of a few each, each at or under ``limit`` the plain kernel's time where one region alone is
    (``profiling.subsets``); writes ``out_dir``/subsets.json and returns it (``combine``'s record)."""
    p = prepare(path, machine, opts, schedule, check=False)     # the whole run compiled every region
    names = list(whole.get("nodes") or {}) + list(whole.get("waits") or {})
    ratio = (whole.get("overhead") or {}).get("ratio")
    rec = whole.get("record_overhead_cycles")
    say(f"  {len(names)} regions in runs of a few each, each at or under x{limit} where it can be (the run with "
        f"every region cost x{ratio or 0:.3f})")
    every = EVERY if p.big is not None else 1       # no timed problem: no overhead to keep under the limit
    iters = traced_problem(p, every)[1]
    with tempfile.TemporaryDirectory(prefix="twill-subsets-") as tmp:
        def measure(grp: tuple[str, ...]) -> dict[str, Any]:
            r = _run(p, os.path.join(tmp, f"run{len(os.listdir(tmp))}"), opts, schedule, *split_names(grp), every=every)
            rep = replay(load_trace(r.trace_path), [x.name for x in r.regions], r.sm_clock_ghz,
                         expected_iters=iters, record_cycles=rec, every=every)
            return run_entry(grp, rep, r.plain_ms, r.instrumented_ms, r.proton_dropped or rep["lost_records"], every)
        runs, split = measure_all(names, ratio, measure, limit, say)
    out = combine(runs, split)
    atomic_write(os.path.join(out_dir, "subsets.json"), json.dumps(out, indent=1) + "\n")
    return out


def summary(prof: dict[str, Any]) -> str:
    """The text ``twill profile`` prints: per-node latency statistics, waits, iteration, overhead."""
    it = prof.get("iteration")
    ovh = prof.get("overhead") or {}
    lines = [f"{prof['kernel']} on {prof['gpu']} ({prof['arch']}, triton {prof['triton_version']}), "
             f"traced problem {prof['problem']}"]
    if it:
        lines.append(f"iteration: median {it['median_cycles']:.0f} cycles ({it.get('median_ns', 0):.0f} ns), "
                     f"p10 {it['p10_cycles']:.0f}, p90 {it['p90_cycles']:.0f} (anchor {it['anchor']})")
    if ovh.get("ratio"):
        lines.append(f"overhead: instrumented / plain = {ovh['ratio']:.3f} ({ovh['instrumented_ms']:.3f} / "
                     f"{ovh['plain_ms']:.3f} ms at {ovh['problem']})")
    clock = prof.get("clock") or {}
    src = (prof.get("machine") or {}).get("sm_clock_source", "reported")
    lines.append(f"record overhead {prof['record_overhead_cycles']} cycles (subtracted); SM clock "
                 f"{clock.get('ghz', 0):.3f} GHz ({src}); clock wraps: {len(clock.get('wraps') or [])}")
    lines.append(f"{'region':26}{'count':>8}{'median':>9}{'p10':>8}{'p90':>8}  cycles")
    for name, s in list(prof["nodes"].items()) + list(prof["waits"].items()):
        lines.append(f"{name:26}{s['count']:>8}{s['median_cycles']:>9.0f}{s['p10_cycles']:>8.0f}{s['p90_cycles']:>8.0f}")
    if prof.get("unmeasured"):
        lines.append("not measured (no region of their own): " + ", ".join(prof["unmeasured"]))
    return "\n".join(lines)

