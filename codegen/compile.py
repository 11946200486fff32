"""Compile an annotated TTGIR through the installed Triton's remaining passes (offline, to cubin),
or install it as a stages hook so that an ordinary ``kernel[grid](...)`` launch uses it.

The stages and clusters are copied from the annotated file onto the live module right after
Triton's own ``schedule_loops`` (``schedule_point``: before ``tritongpu-pipeline`` on sm_90, before
``tritongpu-warp-specialize`` on sm_100; matched op by op), through ``twill.ir.pipeline``'s pass replay.
A Triton failure becomes a ``CompileError`` that names the realisability constraint it points to.
"""
from __future__ import annotations

import contextlib
import functools
from typing import Any, Iterator

from codegen.annotate import apply_annotation, read_annotation
from twill.errors import CompileError

PIPELINE_PASS = "add_pipeline"
SCHEDULE_PASS = "add_schedule_loops"


def _callbacks(annotated: str, point: str = PIPELINE_PASS) -> dict[str, Any]:
    from twill.ir.pipeline import module_text

    ann = read_annotation(annotated)
    return {point: lambda mod: apply_annotation(module_text(mod), ann)}


def schedule_point(target: Any) -> str:
    """The ``make_ttgir`` pass a schedule is applied in front of: the one right after Triton's own
    ``schedule_loops``, where Triton's schedule is final and the loop is still the extracted one.

    On sm_90 that is ``add_pipeline``. On sm_100 it is ``add_warp_specialize``, which splits a
    ``warp_specialize=True`` loop into partitions by stage (adding barriers and buffer indexing)
    before the pipeliner runs, so a schedule applied later no longer matches the loop.

    Examples
    --------
    >>> schedule_point("h100"), schedule_point("b200")     # doctest: +SKIP
    ('add_pipeline', 'add_warp_specialize')
    """
    from twill.ir.pipeline import target_for

    try:
        names = ttgir_passes(target_for(target).arch)
    except Exception:   # noqa: BLE001 - a make_ttgir the dry run cannot follow: the sm_90 point
        return PIPELINE_PASS
    i = names.index(SCHEDULE_PASS) if SCHEDULE_PASS in names else len(names)
    # A callback runs before the first pass of its name: the next pass must not occur earlier.
    if i + 1 >= len(names) or names[i + 1] in names[:i + 1]:
        return PIPELINE_PASS
    return names[i + 1]


@functools.lru_cache(maxsize=None)
def ttgir_passes(capability: int) -> tuple[str, ...]:
    """The ``add_*`` short names of the installed Triton's ``make_ttgir`` for a CUDA capability, in
    order: the backend's function run against a recording pass manager and a stand-in module."""
    import types

    from triton.compiler.compiler import make_backend

    from twill.ir import pipeline as P

    backend = make_backend(P.target_for(capability))
    original = type(backend).make_ttgir
    made: list[P._RecordingPM] = []

    class DryPM(P._RecordingPM):
        def __init__(self, ctx: Any) -> None:
            super().__init__(ctx)
            made.append(self)

        def run(self, mod: Any, *args: Any) -> None:   # record only
            pass

    class IR:
        def __getattr__(self, name: str) -> Any:
            return DryPM if name == "pass_manager" else getattr(P._libs()[0], name)

    class Module:
        context = None

        def get_tensordesc_metadata(self) -> list:
            return []

    _, passes, nvidia = P._libs()
    g = dict(original.__globals__, ir=IR(), passes=P._Namespace(passes, "passes"),
             nvidia=P._Namespace(nvidia, "nvidia"))
    patched = types.FunctionType(original.__code__, g, original.__name__, original.__defaults__,
                                 original.__closure__)
    patched(Module(), {}, backend.parse_options({}), capability)
    return tuple(q.rsplit(".", 1)[-1] for pm in made for q, *_ in pm.entries)


def explain(err: Exception) -> CompileError:
    """A Triton failure on a scheduled kernel, with the constraint the search should honour."""
    msg = str(err)
    if "predicate this op" in msg:
        return CompileError("Triton cannot realise the schedule: its pipeliner cannot predicate an op placed "
                            "before the last stage", where="tritongpu-pipeline",
                            expected="every warp_group_dot in the last stage (constraint last_stage)",
                            found=msg.strip().splitlines()[-1][:200])
    if isinstance(err, CompileError):
        return err
    return CompileError(f"Triton failed to compile the scheduled kernel: {msg.strip().splitlines()[-1][:200]}")


@contextlib.contextmanager
def captured_stderr() -> Iterator[list[str]]:
    """MLIR diagnostics go to file descriptor 2, not into the Python exception: capture them."""
    import os
    import sys
    import tempfile

    out: list[str] = []
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile(mode="w+b") as f:
        os.dup2(f.fileno(), 2)
        try:
            yield out
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            f.seek(0)
            out.extend(f.read().decode(errors="replace").splitlines())


def first_error(lines: list[str]) -> str | None:
    """The first MLIR ``error:`` diagnostic, without its file prefix."""
    for ln in lines:
        if "error:" in ln:
            return ln.split("error:", 1)[1].strip()
    return None


def compile_annotated(spec: Any, arch: str, annotated: str, options: dict[str, Any] | None = None) -> Any:
    """Offline: the ``CompiledKernel`` of ``spec`` (a ``KernelSpec``) with the annotated schedule.

    Examples
    --------
    >>> k = compile_annotated(load_kernel("kernels/gemm.py", "h200"), "h200", text)   # doctest: +SKIP
    >>> len(k.asm["cubin"]) > 0                                                       # doctest: +SKIP
    True
    """
    from twill.ir.load import source_of
    from twill.ir.pipeline import compile_with_callbacks

    with captured_stderr() as diag:
        try:
            return compile_with_callbacks(source_of(spec), arch, dict(options or spec.options),
                                          _callbacks(annotated, schedule_point(arch)))
        except CompileError as e:
            failure: CompileError | None = e
    msg = first_error(diag)
    raise explain(RuntimeError(f"{failure}: {msg}") if msg else failure) from None


def _clear_jit_caches(fns: tuple[Any, ...]) -> None:
    for fn in fns:
        caches = getattr(fn, "device_caches", None)
        if caches is not None:
            caches.clear()


@contextlib.contextmanager
def scheduled(annotated: str, *kernels: Any) -> Iterator[None]:
    """Within the block, compiling a kernel (a ``kernel[grid](...)`` launch) applies the annotated
    schedule. ``kernels`` are the JIT functions whose in-memory caches are cleared on entry and exit,
    so neither the default nor the scheduled binary leaks across the boundary."""
    from twill.ir.pipeline import _fresh_cache, _installed

    _clear_jit_caches(kernels)
    try:
        with _fresh_cache(), _installed(_callbacks(annotated), (), []):
            yield
    finally:
        _clear_jit_caches(kernels)
