"""``twill validate``: a twill schedule on this machine's GPU against Triton's own.

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
This sits above codegen (which compiles the schedule) and profiling (which measures it), and imports
no solver.
"""
from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from codegen.annotate import annotate_ttgir
from codegen.compile import schedule_plan, scheduled
from codegen.placement import placement
from profiling.check import first_output, poisoned_outputs, rel_err
from profiling.critical_path import iteration_breakdown, measured_critical_path
from profiling.kernel import ProfileOptions, kernel_module, profile_kernel, profile_subsets
from profiling.run import require_gpu
from profiling.subsets import wants_subsets
from profiling.trace import load_trace
from twill.errors import InputError
from twill.graph.io import graph_from_dict
from twill.graph.model import LoopGraph
from twill.machine.model import Machine
from twill.schedule.model import Schedule
from twill.util import atomic_write, clip, sha256
from twill.view import write_html

DEFAULT_SWEEP = ({"num_stages": 2}, {"num_stages": 3}, {"num_stages": 4}, {"num_warps": 4, "num_stages": 3})
TOLERANCE = 1e-2          # relative error (Frobenius) against the reference; a kernel may set VALIDATE_TOL


def kernel_hooks(path: str) -> Any:
    """The kernel file as a module, refused in one line when it lacks what validation launches it with:
    ``make_inputs``, ``launch`` and ``reference`` (see ``kernels/gemm.py``)."""
    mod = kernel_module(path)
    if not callable(getattr(mod, "reference", None)):
        raise InputError("kernel file has no reference to validate against", where=path,
                         expected="a function reference(inputs) beside make_inputs and launch (see kernels/gemm.py)",
                         found="none")
    return mod


def load_schedule_dir(schedule: str, kernel_path: str, machine: Machine) -> tuple[dict[str, Any], str, str]:
    """(schedule.json, pre-pipeline TTGIR, annotated TTGIR) of a ``twill optimize`` output directory,
    refused (one line) when it was made for another kernel, GPU or version of the source."""
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
    sha = sha256(Path(kernel_path).read_bytes())
    arch = sched.get("arch")
    if arch is not None and arch != machine.name and {arch, machine.name} != {"h100", "h200"}:
        raise InputError("schedule is for another GPU", where=str(need[0]), expected=machine.name, found=str(arch))
    if sched.get("source_sha256") and sched["source_sha256"] != sha:
        raise InputError("schedule is of another kernel source", where=str(need[0]),
                         expected=f"source sha256 {sha[:12]} ({kernel_path})",
                         found=f"{str(sched['source_sha256'])[:12]} (kernel {sched.get('kernel')})")
    if not isinstance(sched.get("graph"), dict):
        raise InputError("schedule has no embedded graph", where=str(need[0]),
                         expected="a schedule.json written by twill optimize", found="no graph")
    return sched, need[1].read_text(), need[2].read_text()


@dataclass(frozen=True)
class Case:
    """One validation: the kernel file as a module and its JIT function, the schedule (its record,
    graph and annotated TTGIR), the machine, where to write, how to report."""

    torch: Any
    mod: Any
    jit: Any
    sched: dict[str, Any]
    pre: str
    annotated: str
    machine: Machine
    path: str
    schedule_dir: str
    out_dir: str
    say: Callable[[str], None]

    @property
    def graph(self) -> LoopGraph:
        return graph_from_dict(self.sched["graph"])

    @property
    def schedule(self) -> Schedule:
        return Schedule.from_dict(self.sched)

    @property
    def problem(self) -> dict[str, Any]:
        return dict(getattr(self.mod, "PROBLEM", {}) or {})


def validate(path: str, machine: Machine, schedule: str, out_dir: str, *, profile: bool = True,
             depths: tuple[int, ...] = (1, 2, 3), say: Callable[[str], None] = print) -> dict[str, Any]:
    """Validate ``schedule`` (a ``twill optimize`` output directory) for kernel ``path`` on this GPU;
    write ``out_dir``/validation.json (and schedule.html, profile/) and return the record.

    Bad input (a kernel file without ``reference``, a schedule of another kernel or GPU) is refused
    before any GPU work; without a GPU, one ``DeviceError`` line.

    Examples
    --------
    >>> r = validate("kernels/gemm.py", load_machine("h200"), "bench/results/schedules/gemm-h200", "out")  # doctest: +SKIP
    >>> r["correctness"]["pass"], r["speed"]["twill_depth"], r["critical_path"]["nodes"]                   # doctest: +SKIP
    (True, 3, ['dot0_acc', 'dot0_acc'])
    """
    mod = kernel_hooks(path)                                            # bad input first, GPU or not
    sched, pre, annotated = load_schedule_dir(schedule, path, machine)
    jit = getattr(mod, str(sched.get("kernel")), None)
    if jit is None:
        raise InputError("kernel not found in the file", where=path, expected=str(sched.get("kernel")), found="none")
    torch = require_gpu()
    case = Case(torch, mod, jit, sched, pre, annotated, machine, path, str(schedule), out_dir, say)
    fresh = not os.path.exists(out_dir)
    try:
        result, prof = measure(case, profile=profile, depths=depths)
        os.makedirs(out_dir, exist_ok=True)
        atomic_write(os.path.join(out_dir, "validation.json"), json.dumps(result, indent=1) + "\n")
        write_html(Path(out_dir) / "schedule.html", sched, None, prof, result)
    except BaseException:
        if fresh:                              # nothing half-written left behind
            shutil.rmtree(out_dir, ignore_errors=True)
        raise
    return result


def measure(case: Case, *, profile: bool, depths: tuple[int, ...]) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The GPU part of ``validate``: (the validation record, the re-profile or None)."""
    import triton

    sched, torch = case.sched, case.torch
    result: dict[str, Any] = {"schema": "twill.validation/1", "kernel": sched.get("kernel"), "arch": case.machine.name,
                              "gpu": torch.cuda.get_device_name(), "triton_version": triton.__version__,
                              "torch_version": torch.__version__, "schedule": case.schedule_dir,
                              "problem": case.problem,
                              "predicted_iteration_cycles": (sched.get("predicted") or {}).get("iteration_cycles")}
    # A warp-specialized schedule runs as compiled offline: the extraction's num_warps (Triton gives
    # every partition that many), the buffer depth between partitions that fitted, its tile sizes.
    ws_launch = launch_config(sched, case.mod)
    if ws_launch:
        result["launch"] = ws_launch
        case.say(f"warp-specialized schedule: launched with {', '.join(f'{k}={v}' for k, v in ws_launch.items())} "
                 "(the unscheduled kernel too, for the comparison)")
    result["correctness"] = correctness(case, ws_launch)
    result.update(speed(case, ws_launch, () if ws_launch else depths))
    prof = None
    if profile and ws_launch:
        result["profile_skipped"] = ("warp-specialized loop: twill profile inserts its records into the single "
                                     "loop, before Triton splits it into partitions; not supported")
        case.say(f"re-profile skipped: {result['profile_skipped']}")
    elif profile:
        prof = reprofile(case, result)
    return result, prof


def correctness(case: Case, launch: dict[str, Any]) -> dict[str, Any]:
    """The scheduled kernel against the reference and against the same kernel with Triton's own
    schedule, two seeds, the small and the real problem, outputs poisoned with NaN."""
    mod, torch = case.mod, case.torch
    small = dict(getattr(mod, "SMALL", None) or case.problem)
    tol = float(getattr(mod, "VALIDATE_TOL", TOLERANCE))
    checks = []
    for seed in (11, 12):
        for size in ({**small}, {**case.problem}):
            inp = mod.make_inputs(**size, seed=seed)
            ref = mod.reference(inp)
            with poisoned_outputs():
                with scheduled(case.annotated, case.jit):
                    got = first_output(mod.launch(inp, **launch))
                plain = first_output(mod.launch(inp, **launch))
            torch.cuda.synchronize()
            nan = bool(torch.isnan(got.float()).any().item())
            e_ref, e_plain = rel_err(got, ref), rel_err(got, plain)
            checks.append({"seed": seed, "problem": size, "rel_err_reference": e_ref, "rel_err_unscheduled": e_plain,
                           "nan": nan, "pass": (not nan) and e_ref < tol and e_plain < tol})
            del inp, ref, got, plain
    c = {"pass": all(c["pass"] for c in checks), "tolerance": tol, "poison": "NaN (torch.empty filled)",
         "max_rel_err_reference": max(c["rel_err_reference"] for c in checks),
         "max_rel_err_unscheduled": max(c["rel_err_unscheduled"] for c in checks), "checks": checks}
    case.say(f"correctness: {'pass' if c['pass'] else 'FAIL'} (max relative error {c['max_rel_err_reference']:.2e} "
             f"against the reference, {c['max_rel_err_unscheduled']:.2e} against the unscheduled kernel; "
             f"tolerance {tol:g})")
    return c


def _failure(e: Exception) -> str:
    return f"failed: {clip(str(e).splitlines()[0], 160) if str(e) else type(e).__name__}"


def speed(case: Case, launch: dict[str, Any], depths: tuple[int, ...]) -> dict[str, Any]:
    """Times at the real problem size: Triton's default, a config sweep, the schedule at each streaming
    depth (or, warp-specialized, at the depth it was compiled with). Returns the record's speed fields."""
    import triton

    mod = case.mod
    inp = mod.make_inputs(**case.problem, seed=13)
    fl = mod.flops(**case.problem) if callable(getattr(mod, "flops", None)) else None

    def rate(fn: Callable[[], Any]) -> float:
        ms = triton.testing.do_bench(fn)
        return round(fl / ms * 1e-9, 1) if fl else round(ms, 4)

    def better(a: float, b: float) -> bool:
        return a > b if fl else a < b

    sp: dict[str, Any] = {"unit": "TFLOP/s" if fl else "ms", "triton_default": rate(lambda: mod.launch(inp))}
    best = ("default", sp["triton_default"])
    for cfg in getattr(mod, "VALIDATE_CONFIGS", DEFAULT_SWEEP):
        key = "triton_" + "_".join(f"{k}{v}" for k, v in cfg.items())
        try:
            sp[key] = rate(lambda: mod.launch(inp, **cfg))
        except Exception as e:            # a config Triton cannot run (shared memory): record, go on
            sp[key] = f"failed: {type(e).__name__}"
            continue
        if better(sp[key], best[1]):
            best = (key, sp[key])
    sp["triton_best"], sp["triton_best_config"] = best[1], best[0]
    twill_best: tuple[int | None, float | None] = (None, None)
    def at_depth(d: int) -> Callable[[], str]:
        return lambda: annotate_ttgir(case.pre, case.graph, case.schedule, case.machine, distance=d)

    variants = [(d, at_depth(d), {}) for d in depths]
    if launch:
        # The depth of a warp-specialized loop is its num_stages, fixed when it was compiled offline;
        # the same launch without the schedule is Triton's own code at that configuration.
        sp["triton_same_config"] = rate(lambda: mod.launch(inp, **launch))
        variants = [(int(launch["num_stages"]), lambda: case.annotated, launch)]
    for d, annotated, cfg in variants:
        try:
            with scheduled(annotated(), case.jit):
                mod.launch(inp, **cfg)
                v = rate(lambda: mod.launch(inp, **cfg))
        except Exception as e:            # out of resources on this GPU, a compile error: say why
            sp[f"twill_d{d}"] = _failure(e)
            continue
        sp[f"twill_d{d}"] = v
        if twill_best[1] is None or better(v, twill_best[1]):
            twill_best = (d, v)
    sp["twill"], sp["twill_depth"] = twill_best[1], twill_best[0]
    out: dict[str, Any] = {"speed": sp}
    if twill_best[1] is not None and fl:
        out.update(tflops=twill_best[1], baseline_tflops=sp["triton_default"],
                   speedup=round(twill_best[1] / sp["triton_default"], 4), speedup_vs_best=round(twill_best[1] / best[1], 4))
    case.say(f"speed ({sp['unit']}): Triton default {sp['triton_default']}, Triton best {best[1]} ({best[0]}), "
             f"twill {twill_best[1]} (streaming depth {twill_best[0]})")
    return out


def reprofile(case: Case, result: dict[str, Any]) -> dict[str, Any]:
    """Re-profile the schedule at its fastest depth and put the measured iteration, its breakdown, the
    per-node latencies and the critical path beside the prediction in ``result``."""
    g, s = case.graph, case.schedule
    depth = (result.get("speed") or {}).get("twill_depth")
    target, annotated = case.schedule_dir, case.annotated
    if depth is not None:         # beside, never over, the schedule's own annotated.ttgir
        os.makedirs(case.out_dir, exist_ok=True)
        target = os.path.join(case.out_dir, f"annotated.d{depth}.ttgir")
        annotated = annotate_ttgir(case.pre, g, s, case.machine, distance=depth)
        atomic_write(target, annotated)
    prof_dir = os.path.join(case.out_dir, "profile")
    opts = ProfileOptions(buffer_type="global", buffer_size=1 << 16, schedule=target)
    plan = schedule_plan(annotated, case.machine.sm)
    prof = profile_kernel(case.path, case.machine, prof_dir, opts, say=case.say, schedule=plan)
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
    nodes, waits = prof["nodes"], prof["waits"]
    if wants_subsets(prof):      # every region in one run costs too much: the regions in runs of a few
        sub = profile_subsets(case.path, case.machine, prof_dir, prof, opts, case.say, plan)
        result.update(subset_fields(sub, pred, ratio))
        nodes, waits = {**nodes, **sub["nodes"]}, {**waits, **sub["waits"]}
        prof = {**prof, "nodes": nodes, "waits": waits}     # the view's per-node figures: the runs of a few
    cyc = case.sched.get("cycles") or {}
    result["nodes"] = {n: {"predicted_cycles": cyc.get(n), "measured_median_cycles": v["median_cycles"]}
                       for n, v in nodes.items()}
    result["waits"] = {n: v["median_cycles"] for n, v in waits.items()}
    trace = Path(prof_dir) / "trace.chrome_trace"
    if trace.is_file():
        scale = float((case.sched.get("normalization") or {}).get("scale") or case.sched.get("time_unit_cycles") or 1.0)
        stage = placement(g, s, case.machine, distance=depth).stage_map
        result["critical_path"] = measured_critical_path(load_trace(trace), g, s, scale, stage, ratio)
    return prof


def subset_fields(sub: dict[str, Any], pred: float | None, ratio: float) -> dict[str, Any]:
    """``validate``'s fields from the re-profile in runs of a few regions (``profiling.subsets``): the measured
    iteration theirs (each run's over its overhead, the median), the overhead the largest of a kept run; the run with
    every region kept apart (``all_regions_run``: the critical path's and the breakdown's, at ``ratio``); the runs
    recorded one loop iteration in ``profile_recorded_every``.

    Examples
    --------
    >>> f = subset_fields({"iteration": {"median_cycles": 3800.0}, "max_overhead": 1.04, "every_record_kept": True,
    ...                    "runs": [{}, {}], "split_runs": []}, 3624.0, 1.26)
    >>> f["measured_iteration_cycles"], f["iteration_error"], f["profile_overhead"], f["profile_runs"]
    (3800.0, 0.0486, 1.04, 2)
    """
    it = (sub.get("iteration") or {}).get("median_cycles")
    return {"measured_iteration_cycles": it, "iteration_error": round((it - pred) / pred, 4) if it and pred else None,
            "measured_period_kind": "median over the runs of a few regions of each run's iteration over its overhead",
            "profile_overhead": sub.get("max_overhead"), "profile_every_record_kept": sub.get("every_record_kept"),
            "profile_runs": len(sub.get("runs") or []), "profile_split_runs": len(sub.get("split_runs") or []),
            "profile_recorded_every": max((int(r.get("recorded_every") or 1) for r in sub.get("runs") or []), default=1),
            "all_regions_run": {"overhead": ratio, "used_for": "critical path and iteration breakdown"}}


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
