"""Run a kernel with Proton records inserted at the TTGIR level (``profiling.insert``) and collect the
chrome trace; time the instrumented kernel against the plain one at the real problem size. GPU only."""
from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from typing import Any, Callable

from twill.errors import DeviceError
from twill.graph.model import LoopGraph


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
    sm_clock_ghz: float
    gpu: str


def require_gpu() -> Any:
    """torch with a CUDA device, or one ``DeviceError`` line."""
    try:
        import torch
    except ImportError:
        raise DeviceError("no GPU: torch is not installed", expected="a machine with a CUDA GPU and torch") from None
    if not torch.cuda.is_available():
        raise DeviceError("no GPU: torch sees no CUDA device", expected="a machine with a CUDA GPU")
    return torch


def _mode(sampling: str, buffer_type: str, buffer_size: int) -> Any:
    from triton.profiler import mode as pmode

    kw: dict[str, Any] = {"buffer_type": buffer_type, "buffer_size": buffer_size}
    if sampling != "all":
        kw.update(sampling_strategy="selective", sampling_options=sampling)
    return pmode.Default(**kw)


def profile_run(g: LoopGraph, launch: Callable[[], Any], bench_launch: Callable[[], Any] | None,
                kernels: tuple[Any, ...], out_dir: str, annotated: str | None = None, sampling: str = "0,4",
                buffer_type: str = "shared", buffer_size: int = 0) -> RunResult:
    """Instrument, launch once under a Proton session (trace), then time plain and instrumented
    ``bench_launch`` with do_bench. ``kernels`` are the JIT functions (their caches are cleared)."""
    torch = require_gpu()
    import triton
    import triton.profiler as proton
    from triton.profiler.hooks.instrumentation import InstrumentationHook

    from codegen.compile import _callbacks, _clear_jit_caches
    from profiling.insert import callbacks
    from twill.ir.pipeline import _fresh_cache, _installed

    props = triton.runtime.driver.active.utils.get_device_properties(torch.cuda.current_device())
    ghz = props["sm_clock_rate"] / 1e6
    mode = _mode(sampling, buffer_type, buffer_size)
    before = _callbacks(annotated) if annotated else None
    regions: list[Any] = []
    meta: dict[str, Any] = {}
    os.makedirs(out_dir, exist_ok=True)
    base = os.path.join(tempfile.mkdtemp(prefix="twill-proton-"), "trace")
    plain_ms = None
    if bench_launch is not None:
        _clear_jit_caches(kernels)
        if annotated:
            from codegen.compile import scheduled

            with scheduled(annotated, *kernels):
                bench_launch()
                plain_ms = triton.testing.do_bench(bench_launch)
        else:
            plain_ms = triton.testing.do_bench(bench_launch)
    _clear_jit_caches(kernels)
    with _fresh_cache(), _installed(callbacks(g, regions, before=before), (), []):
        proton.start(base, data="trace", backend="instrumentation", mode=mode)
        try:
            k = launch()
            torch.cuda.synchronize()
        finally:
            proton.finalize()
    _clear_jit_caches(kernels)
    if hasattr(k, "metadata"):
        meta = {"num_warps": k.metadata.num_warps, "scratch": k.metadata.profile_scratch_size,
                "shared": k.metadata.shared}
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
            with _fresh_cache(), _installed(callbacks(g, [], before=before), (), []):
                bench_launch()
                inst_ms = triton.testing.do_bench(bench_launch)
        finally:
            hook.deactivate()
            _clear_jit_caches(kernels)
    sampled = tuple(int(x) for x in sampling.split(",")) if sampling != "all" else ()
    return RunResult(dst, tuple(regions), int(meta.get("num_warps", 0)), int(meta.get("scratch", 0)),
                     int(meta.get("shared", 0)), plain_ms, inst_ms, sampled, ghz, torch.cuda.get_device_name())
