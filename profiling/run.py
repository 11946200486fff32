"""Run a kernel with Proton records inserted at the TTGIR level (``profiling.insert``) and collect the
chrome trace; time the instrumented kernel against the plain one at the real problem size. GPU only."""
from __future__ import annotations

import contextlib
import os
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from profiling.check import rel_err
from profiling.clock import measure_sm_clock_ghz
from profiling.insert import record_plan
from twill.errors import DeviceError, ProfileError
from twill.graph.model import LoopGraph
from twill.ir.triton_hooks import PassPlan, planned_launches
from twill.util import clip


@dataclass(frozen=True)
class RunResult:
    """What one instrumented run produced: the trace file, regions, launch metadata and timings (ms)."""

    trace_path: str
    regions: tuple[Any, ...]
    num_warps: int
    profile_scratch_size: int
    shared: int
    plain_ms: float | None
    instrumented_ms: float | None
    sampled_warps: tuple[int, ...]
    sm_clock_ghz: float                 # measured when the probe worked (``device["sm_clock_source"]``)
    gpu: str
    num_stages: int = 0
    device: dict[str, Any] = field(default_factory=dict)      # GPU, SMs, reported and measured SM clock, host
    proton_dropped: dict[str, Any] | None = None              # Proton's own report of records it dropped


OUTPUT_TOLERANCE = 1e-2    # an instrumented kernel's output against the plain one's (``rel_err``, as validate's)


def require_gpu() -> Any:
    """torch with a CUDA device, or one ``DeviceError`` line."""
    try:
        import torch
    except ImportError:
        raise DeviceError("no GPU: torch is not installed", expected="a machine with a CUDA GPU and torch") from None
    if not torch.cuda.is_available():
        raise DeviceError("no GPU: torch sees no CUDA device", expected="a machine with a CUDA GPU")
    return torch


def device_info(torch: Any) -> dict[str, Any]:
    """The GPU the profile was taken on, and its SM clock: measured by ``profiling.clock`` (Proton counts
    cycles at the running clock, which under load is below the advertised maximum), the reported
    maximum when the probe fails (``sm_clock_source`` says which)."""
    import platform

    import triton

    dev = torch.cuda.current_device()
    props = triton.runtime.driver.active.utils.get_device_properties(dev)
    reported = props["sm_clock_rate"] / 1e6
    sms = int(props.get("multiprocessor_count") or torch.cuda.get_device_properties(dev).multi_processor_count)
    info: dict[str, Any] = {"host": platform.node(), "gpu": torch.cuda.get_device_name(dev),
                            "capability": ".".join(map(str, torch.cuda.get_device_capability(dev))), "sms": sms,
                            "sm_clock_ghz_reported": round(reported, 4), "torch": torch.__version__,
                            "cuda": torch.version.cuda}
    try:
        measured = measure_sm_clock_ghz(torch, sms)
    except Exception as e:          # the probe is a convenience: fall back to the reported clock
        info.update(sm_clock_ghz=round(reported, 4), sm_clock_source=clip(f"reported ({type(e).__name__}: {e})", 200))
        return info
    if not 0.2 < measured < 2 * reported:
        info.update(sm_clock_ghz=round(reported, 4), sm_clock_source=f"reported (probe gave {measured:.3f} GHz)")
    else:
        info.update(sm_clock_ghz=round(measured, 4), sm_clock_ghz_measured=round(measured, 4),
                    sm_clock_source="measured")
    return info


def compiled_kernel(kernels: tuple[Any, ...]) -> Any | None:
    """The ``CompiledKernel`` a launch left in the JIT functions' in-memory caches (a kernel file's
    ``launch`` returns its output, not the kernel): where the launch's metadata is read from."""
    for fn in kernels:
        for entry in list(getattr(fn, "device_caches", {}).values()):
            cache = entry[0] if isinstance(entry, tuple) and entry else None
            if isinstance(cache, dict) and cache:
                return list(cache.values())[-1]
    return None


# Proton's C++ trace writer prints one line per warp whose circular buffer wrapped.
_DROPPED = re.compile(r"Warning \(cta(\d+), warp(\d+)\): first (\d+) events are dropped due to insufficient "
                      r"buffer size \((\d+)/(\d+)\)")


def proton_drops(lines: list[str]) -> dict[str, Any] | None:
    """Proton's own per-warp drop notices folded into the ``lost_records`` form replay uses.

    Examples
    --------
    >>> proton_drops(["Warning (cta0, warp4): first 832 events are dropped due to insufficient buffer size (128/960)"])
    {'units_short': 1, 'records_expected_per_warp': 960, 'records_kept_per_warp': 128, 'reported_by': 'proton'}
    """
    found = [m for m in (_DROPPED.search(x) for x in lines) if m]
    if not found:
        return None
    return {"units_short": len({(m.group(1), m.group(2)) for m in found}),
            "records_expected_per_warp": max(int(m.group(5)) for m in found),
            "records_kept_per_warp": min(int(m.group(4)) for m in found), "reported_by": "proton"}


@contextlib.contextmanager
def captured_output(log_path: str) -> Iterator[list[str]]:
    """Within the block, file descriptors 1 and 2 write to ``log_path`` (Proton's C++ side prints a line
    per warp, hundreds of them, when its buffer wraps); after it, the yielded list holds the lines and
    every line that is not such a drop notice is passed on to stderr."""
    import ctypes

    lines: list[str] = []
    sys.stdout.flush()
    sys.stderr.flush()
    saved = (os.dup(1), os.dup(2))
    with open(log_path, "w+b") as f:
        os.dup2(f.fileno(), 1)
        os.dup2(f.fileno(), 2)
        try:
            yield lines
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            with contextlib.suppress(Exception):
                ctypes.CDLL(None).fflush(None)      # C stdio buffers (std::cout) before the switch back
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
            f.seek(0)
            lines.extend(f.read().decode(errors="replace").splitlines())
            rest = [x for x in lines if not _DROPPED.search(x)]
            if rest:
                print("\n".join(rest), file=sys.stderr, flush=True)


def _mode(sampling: str, buffer_type: str, buffer_size: int) -> Any:
    from triton.profiler import mode as pmode

    kw: dict[str, Any] = {"buffer_type": buffer_type, "buffer_size": buffer_size}
    if sampling != "all":
        kw.update(sampling_strategy="selective", sampling_options=sampling)
    return pmode.Default(**kw)


def _bench(plan: PassPlan, kernels: tuple[Any, ...], bench_launch: Callable[[], Any] | None) -> float | None:
    """do_bench's median ms of ``bench_launch`` compiled with ``plan`` (None without one)."""
    if bench_launch is None:
        return None
    import triton

    with planned_launches(plan, kernels):
        bench_launch()
        return float(triton.testing.do_bench(bench_launch))


def _output(x: Any) -> Any:
    """A launch's result as a tensor to compare (the first of a tuple; a copy, should the next launch write the same
    buffer), None for anything else."""
    x = x[0] if isinstance(x, (tuple, list)) and x else x
    return x.clone() if hasattr(x, "shape") and hasattr(x, "clone") else None


def _plain(schedule: PassPlan, kernels: tuple[Any, ...], launch: Callable[[], Any]) -> Any:
    with planned_launches(schedule, kernels):
        return launch()


def _traced(plan: PassPlan, kernels: tuple[Any, ...], launch: Callable[[], Any], base: str, mode: Any,
            log: str) -> tuple[Any, Any, list[str]]:
    """``launch`` compiled with ``plan`` under a Proton session writing ``base``: (what it returned, its output to
    compare (``_output``), what Proton printed). A CUDA error (an instrumented kernel that faults: run 218's first
    sampled runs of the FA forward) is one DeviceError line, not a traceback."""
    import torch
    import triton.profiler as proton

    with planned_launches(plan, kernels), captured_output(log) as out:
        proton.start(base, data="trace", backend="instrumentation", mode=mode)
        failed = None
        try:
            k = launch()
            torch.cuda.synchronize()
        except RuntimeError as e:
            failed = str(e).strip().splitlines()[0][:160] if str(e).strip() else type(e).__name__
        try:
            proton.finalize()
        except RuntimeError as e:
            failed = failed or str(e).strip().splitlines()[0][:160]
        if failed:      # a CUDA call's error (``cuStreamSynchronize ... error 700``), else the compile's
            gpu = re.search(r"\bcu[A-Z]\w+|CUDA|error 7\d\d", failed)
            raise DeviceError("the instrumented kernel failed " + ("on the GPU" if gpu else "to compile"), where=base,
                              found=failed)
    return k, _output(k), list(out)


def profile_run(g: LoopGraph, launch: Callable[[], Any], bench_launch: Callable[[], Any] | None,
                kernels: tuple[Any, ...], out_dir: str, schedule: PassPlan = PassPlan(), sampling: str = "0,4",
                buffer_type: str = "shared", buffer_size: int = 0, nodes: tuple[str, ...] | None = None,
                waits: bool | tuple[str, ...] = True, every: int = 1) -> RunResult:
    """Instrument, launch once under a Proton session (trace), then time plain and instrumented
    ``bench_launch`` with do_bench. ``kernels`` are the JIT functions (their caches are cleared);
    ``schedule`` is the plan that compiles them with a twill schedule (none: Triton's own); ``nodes`` and
    ``waits`` which regions to insert (``record_plan``; every node's and the waits by default); ``every`` > 1: the
    loop records one iteration in so many (``profiling.unroll.unroll_recording``)."""
    torch = require_gpu()
    from triton.profiler.hooks.instrumentation import InstrumentationHook

    device = device_info(torch)
    ghz = device["sm_clock_ghz"]
    mode = _mode(sampling, buffer_type, buffer_size)
    regions: list[Any] = []
    meta: dict[str, Any] = {}
    os.makedirs(out_dir, exist_ok=True)
    base = os.path.join(tempfile.mkdtemp(prefix="twill-proton-"), "trace")
    plain_ms = _bench(schedule, kernels, bench_launch)
    log = os.path.join(out_dir, "proton.log")
    plan = schedule + record_plan(g, regions, waits, nodes, every)
    k, got, printed = _traced(plan, kernels, launch, base, mode, log)
    k = k if hasattr(k, "metadata") else compiled_kernel(kernels)
    if k is not None and hasattr(k, "metadata"):
        md = k.metadata
        meta = {"num_warps": getattr(md, "num_warps", 0), "num_stages": getattr(md, "num_stages", 0),
                "scratch": getattr(md, "profile_scratch_size", 0), "shared": getattr(md, "shared", 0)}
    ref = _output(_plain(schedule, kernels, launch))            # the records change no result
    err = rel_err(got, ref) if got is not None and ref is not None and got.shape == ref.shape else None
    if err is not None and not err <= OUTPUT_TOLERANCE:
        raise ProfileError("the instrumented kernel computes another result than the plain one", where=g.name,
                           expected=f"its output within {OUTPUT_TOLERANCE:g} of the plain kernel's (relative error)",
                           found=f"{err:.3g} (regions {', '.join(x.name for x in regions)}; "
                           f"one iteration in {every} recorded)")
    trace = base + ".chrome_trace"
    if not os.path.exists(trace):
        raise DeviceError("Proton wrote no trace", where=base, found=", ".join(os.listdir(os.path.dirname(base))))
    dst = os.path.join(out_dir, "trace.chrome_trace")
    shutil.copy(trace, dst)
    inst_ms = None
    if bench_launch is not None:
        hook = InstrumentationHook(mode)
        hook.activate()
        try:
            inst_ms = _bench(schedule + record_plan(g, [], waits, nodes, every), kernels, bench_launch)
        finally:
            hook.deactivate()
        # the plain kernel timed again after: its mean with the first timing cancels the clock's drift over the run
        # (run 216: single-region runs of the FA forward at x0.97-0.99, timed only before)
        after = _bench(schedule, kernels, bench_launch)
        plain_ms = (plain_ms + after) / 2 if plain_ms and after else plain_ms
    sampled = tuple(int(x) for x in sampling.split(",")) if sampling != "all" else ()
    return RunResult(dst, tuple(regions), int(meta.get("num_warps", 0)), int(meta.get("scratch", 0)),
                     int(meta.get("shared", 0)), plain_ms, inst_ms, sampled, ghz, device["gpu"],
                     num_stages=int(meta.get("num_stages", 0)), device=device, proton_dropped=proton_drops(printed))
