"""Compile an annotated TTGIR through the installed Triton's remaining passes (offline, to cubin),
or install it as a stages hook so that an ordinary ``kernel[grid](...)`` launch uses it.

The stages and clusters are copied from the annotated file onto the live module right before
``tritongpu-pipeline`` (matched by SSA name), through ``twill.ir.pipeline``'s pass replay.
A Triton failure becomes a ``CompileError`` that names the realisability constraint it points to.
"""
from __future__ import annotations

import contextlib
from typing import Any, Iterator

from codegen.annotate import apply_annotation, read_annotation
from twill.errors import CompileError

PIPELINE_PASS = "add_pipeline"


def _callbacks(annotated: str) -> dict[str, Any]:
    from twill.ir.pipeline import module_text

    ann = read_annotation(annotated)
    return {PIPELINE_PASS: lambda mod: apply_annotation(module_text(mod), ann)}


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
                                          _callbacks(annotated))
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
