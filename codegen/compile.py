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
import re
from typing import Any, Iterator

from codegen.annotate import apply_annotation, read_annotation
from twill.errors import CompileError

PIPELINE_PASS = "add_pipeline"
SCHEDULE_PASS = "add_schedule_loops"


def _callbacks(annotated: str, point: str = PIPELINE_PASS) -> dict[str, Any]:
    from twill.ir.pipeline import module_text

    ann = read_annotation(annotated)
    return {point: lambda mod: apply_annotation(module_text(mod), ann)}


HOPPER_WS_PASS = "add_hopper_warpspec"
WS_PASS = "add_warp_specialize"


def warp_route(annotated: str, target: Any) -> tuple[tuple[str, ...], tuple[Any, ...]]:
    """The pass-list edits (passes to skip, passes to insert) that make the installed Triton honour
    an annotation's partitions (``codegen.warps``); none for a stages-only annotation.

    sm_100's ``make_ttgir`` runs ``add_warp_specialize`` (Triton's partitioner, which starts from
    the given ``ttg.partition``s) right after the schedule is applied: nothing to change. sm_90's
    runs ``add_hopper_warpspec`` instead, which ignores ``ttg.partition`` and turns pipelining off;
    it is skipped and ``add_warp_specialize(num_stages)`` inserted where ``add_pipeline`` runs, and
    ``add_pipeline`` is skipped too: with dots in two partitions Triton 3.6's wgmma pipeliner never
    returns (``dotCanBeProperlyAsync`` loops; fixed upstream after 3.6), and with one compute
    partition the pipelined module computes wrong results on the H200 (bench/results/NOTES.md run 14).
    The partitions keep ``num_warps`` each, their dots stay synchronous, and the loads run ahead
    through the buffers between partitions, ``num_stages`` deep.

    Examples
    --------
    >>> skip, insert = warp_route(ws_text, "h100")      # doctest: +SKIP
    >>> skip, [i.binding for i in insert]               # doctest: +SKIP
    (('add_hopper_warpspec', 'add_pipeline'), ['passes.ttgpuir.add_warp_specialize'])
    """
    from codegen.warps import warp_specialized
    from twill.ir.pipeline import Insert, target_for

    if not warp_specialized(annotated):
        return (), ()
    names = ttgir_passes(target_for(target).arch)
    if WS_PASS in names:
        return (), ()
    if PIPELINE_PASS not in names:
        raise CompileError("no place for warp specialization in this Triton's make_ttgir",
                           where=f"sm_{target_for(target).arch}", expected=f"{WS_PASS} or {PIPELINE_PASS}",
                           found=", ".join(names[-6:]))
    skip = ((HOPPER_WS_PASS,) if HOPPER_WS_PASS in names else ()) + (PIPELINE_PASS,)
    return skip, (Insert("passes.ttgpuir.add_warp_specialize", PIPELINE_PASS, args=_num_stages),)


def _num_stages(options: Any) -> tuple[int]:
    return (int(getattr(options, "num_stages", 3)),)


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


GENERIC_ERROR = "Failures have been detected while processing an MLIR pass pipeline"


def first_error(lines: list[str]) -> str | None:
    """The first MLIR ``error:`` diagnostic, without its file prefix; when the only error is the pass
    manager's generic one, the first ``warning:`` (a pass that fails with a warning, as Triton's
    ``partition-loops`` does) with its first note, else the generic error."""
    errors = [ln.split("error:", 1)[1].strip() for ln in lines if "error:" in ln]
    specific = [e for e in errors if GENERIC_ERROR not in e]
    if specific:
        return specific[0]
    for i, ln in enumerate(lines):
        if "warning:" in ln:
            msg = ln.split("warning:", 1)[1].strip()
            note = next((n.split("note:", 1)[1].strip() for n in lines[i + 1:i + 8] if "note:" in n), None)
            return msg + (f" ({note})" if note else "")
    if not errors:
        return None
    # "note: Pipeline failed while executing [`Outer` on ..., `Inner` on ...]": name the innermost pass
    failed = [re.findall(r"`(\w+)` on", ln) for ln in lines if "Pipeline failed while executing" in ln]
    return errors[0] + (f" (in {failed[0][-1]}, no diagnostic)" if failed and failed[0] else "")


@contextlib.contextmanager
def mlir_warnings() -> Iterator[None]:
    """Let MLIR print warnings too (Triton prints only errors unless MLIR_ENABLE_DIAGNOSTICS says so)."""
    import os

    old = os.environ.get("MLIR_ENABLE_DIAGNOSTICS")
    if old is None:
        os.environ["MLIR_ENABLE_DIAGNOSTICS"] = "warnings"
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("MLIR_ENABLE_DIAGNOSTICS", None)


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

    skip, insert = warp_route(annotated, arch)
    with mlir_warnings(), captured_stderr() as diag:
        try:
            return compile_with_callbacks(source_of(spec), arch, dict(options or spec.options),
                                          _callbacks(annotated, schedule_point(arch)), skip=skip, insert=insert)
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
def scheduled(annotated: str, *kernels: Any, target: Any = None) -> Iterator[None]:
    """Within the block, compiling a kernel (a ``kernel[grid](...)`` launch) applies the annotated
    schedule. ``kernels`` are the JIT functions whose in-memory caches are cleared on entry and exit,
    so neither the default nor the scheduled binary leaks across the boundary. ``target`` (an arch
    name or capability; default: the current GPU's) picks the pass where the schedule is applied
    and, for a warp-specialized annotation, the pass-list edits (``warp_route``)."""
    from twill.ir.pipeline import _fresh_cache, _installed

    if target is None and "ttg.partition" in annotated:
        target = _current_capability()
    point = schedule_point(target) if target is not None else PIPELINE_PASS
    skip, insert = warp_route(annotated, target) if target is not None else ((), ())
    _clear_jit_caches(kernels)
    try:
        with _fresh_cache(), _installed(_callbacks(annotated, point), skip, [], insert):
            yield
    finally:
        _clear_jit_caches(kernels)


def _current_capability() -> int:
    import torch

    major, minor = torch.cuda.get_device_capability()
    return major * 10 + minor
