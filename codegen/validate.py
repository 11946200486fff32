"""``twill validate``'s library: a twill schedule on this machine's GPU against Triton's own.

1. Correctness: fresh random inputs (two seeds), the output poisoned with NaN before each run, the
   scheduled kernel against the kernel file's reference and against the same kernel unscheduled.
2. Speed at the kernel's real problem size (do_bench medians): Triton's default configuration,
   Triton's best of a few ``num_stages`` / ``num_warps``, and the twill schedule at each streaming
   depth that fits (paper 5.3: the exposed depth is the tuner's pick).
3. Re-profile (``profiling.kernel``): the measured per-iteration time and per-node medians of the
   scheduled kernel against the schedule's prediction.

Writes ``validation.json`` (the fields the HTML view draws: ``predicted_iteration_cycles``,
``measured_iteration_cycles``, ``tflops``, ``baseline_tflops``, ``speedup``, ``problem``). Imports no solver.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from twill.errors import InputError

DEFAULT_SWEEP = ({"num_stages": 2}, {"num_stages": 3}, {"num_stages": 4}, {"num_warps": 4, "num_stages": 3})


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
    return sched, need[1].read_text(), need[2].read_text()


def _rel_err(x: Any, ref: Any) -> float:
    return ((x.float() - ref.float()).norm() / ref.float().norm()).item()


def _poison() -> None:
    """Fill the caching allocator's free blocks with NaN so that an unwritten output shows."""
    import torch

    free = torch.cuda.mem_get_info()[0]
    t = torch.full((int(min(free * 0.5, 8 << 30)) // 4,), float("nan"), device="cuda", dtype=torch.float32)
    del t


def _out(x: Any) -> Any:
    return x[0] if isinstance(x, (tuple, list)) else x


def validate(path: str, arch: str, schedule: str, out_dir: str, *, profile: bool = True,
             depths: tuple[int, ...] = (1, 2, 3), say: Any = print) -> dict[str, Any]:
    """Validate ``schedule`` (a ``twill optimize`` output directory) for kernel ``path`` on this GPU."""
    from profiling.run import require_gpu

    sched, pre, annotated = load_schedule_dir(schedule, path, arch)     # bad input first, GPU or not
    torch = require_gpu()
    import triton

    from codegen.annotate import annotate_ttgir
    from codegen.compile import scheduled
    from profiling.kernel import kernel_module
    from twill.errors import CompileError
    from twill.graph.io import graph_from_dict
    from twill.schedule.model import Schedule

    mod = kernel_module(path)
    if not callable(getattr(mod, "reference", None)):
        raise InputError("kernel file has no reference to validate against", where=path,
                         expected="a function reference(inputs)", found="none")
    jit = getattr(mod, str(sched.get("kernel")), None)
    if jit is None:
        raise InputError("kernel not found in the file", where=path, expected=str(sched.get("kernel")), found="none")
    g, s = graph_from_dict(sched["graph"]), Schedule.from_dict(sched)
    problem = dict(getattr(mod, "PROBLEM", {}) or {})
    small = dict(getattr(mod, "SMALL", None) or problem)
    flops = getattr(mod, "flops", None)
    result: dict[str, Any] = {"schema": "twill.validation/1", "kernel": sched.get("kernel"), "arch": arch,
                              "gpu": torch.cuda.get_device_name(), "triton_version": triton.__version__,
                              "schedule": str(schedule), "problem": problem,
                              "predicted_iteration_cycles": (sched.get("predicted") or {}).get("iteration_cycles")}
    # 1. Correctness.
    checks = []
    for seed in (11, 12):
        for size in ({**small}, {**problem}):
            inp = mod.make_inputs(**size, seed=seed)
            ref = mod.reference(inp)
            _poison()
            with scheduled(annotated, jit):
                got = _out(mod.launch(inp))
            torch.cuda.synchronize()
            plain = _out(mod.launch(inp))
            nan = bool(torch.isnan(got.float()).any().item())
            e_ref, e_plain = _rel_err(got, ref), _rel_err(got, plain)
            checks.append({"seed": seed, "problem": size, "rel_err_reference": e_ref, "rel_err_unscheduled": e_plain,
                           "nan": nan, "pass": (not nan) and e_ref < 1e-2})
            del inp, ref, got, plain
    result["correctness"] = {"pass": all(c["pass"] for c in checks), "checks": checks}
    say(f"correctness: {'pass' if result['correctness']['pass'] else 'FAIL'} "
        f"(max relative error {max(c['rel_err_reference'] for c in checks):.2e} against the reference)")
    # 2. Speed.
    inp = mod.make_inputs(**problem, seed=13)
    fl = flops(**problem) if callable(flops) else None

    def rate(ms: float) -> float:
        return round(fl / ms * 1e-9, 1) if fl else round(ms, 4)

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
        if (speed[key] > best[1]) == bool(fl):
            best = (key, speed[key])
    speed["triton_best"], speed["triton_best_config"] = best[1], best[0]
    twill_best: tuple[int | None, float | None] = (None, None)
    for d in depths:
        try:
            ann = annotate_ttgir(pre, g, s, distance=d)
            with scheduled(ann, jit):
                mod.launch(inp)
                v = rate(triton.testing.do_bench(lambda: mod.launch(inp)))
        except (CompileError, Exception) as e:   # a depth that does not fit: say why, try the next
            speed[f"twill_d{d}"] = f"failed: {str(e).splitlines()[0][:160]}"
            continue
        speed[f"twill_d{d}"] = v
        if twill_best[1] is None or (v > twill_best[1]) == bool(fl):
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
    # 3. Re-profile the scheduled kernel and compare with the prediction.
    if profile:
        from profiling.kernel import ProfileOptions, profile_kernel

        target = str(schedule)
        if twill_best[0] is not None:          # profile what was fastest: the schedule at the best depth
            os.makedirs(out_dir, exist_ok=True)
            target = os.path.join(out_dir, f"annotated.d{twill_best[0]}.ttgir")
            Path(target).write_text(annotate_ttgir(pre, g, s, distance=twill_best[0]))
        prof = profile_kernel(path, arch, os.path.join(out_dir, "profile"),
                              ProfileOptions(buffer_type="global", buffer_size=1 << 16, schedule=target), say=say)
        it = (prof.get("iteration") or {}).get("median_cycles")
        pred = result["predicted_iteration_cycles"]
        result["measured_iteration_cycles"] = it
        result["iteration_error"] = round((it - pred) / pred, 4) if it and pred else None
        cyc = sched.get("cycles") or {}
        result["nodes"] = {n: {"predicted_cycles": cyc.get(n), "measured_median_cycles": v["median_cycles"]}
                           for n, v in prof["nodes"].items()}
        result["waits"] = {n: v["median_cycles"] for n, v in prof["waits"].items()}
        result["profile_overhead"] = (prof.get("overhead") or {}).get("ratio")
        say(f"per iteration: predicted {pred} cycles, measured {it} cycles"
            + (f" ({result['iteration_error']:+.1%})" if result["iteration_error"] is not None else ""))
    os.makedirs(out_dir, exist_ok=True)
    tmp = os.path.join(out_dir, "validation.json.tmp")
    Path(tmp).write_text(json.dumps(result, indent=1) + "\n")
    os.replace(tmp, os.path.join(out_dir, "validation.json"))
    return result
