"""Compile an annotated TTGIR through the installed Triton's remaining passes (offline, to cubin),
or install it so that an ordinary ``kernel[grid](...)`` launch uses it.

The stages and clusters are copied from the annotated file onto the live module right after
Triton's own ``schedule_loops`` (``schedule_point``: before ``tritongpu-pipeline`` on sm_90, before
``tritongpu-warp-specialize`` on sm_100; matched op by op), as a ``twill.ir.triton_hooks.PassPlan``.
A Triton failure becomes a ``CompileError`` that names the realisability constraint it points to.
"""
from __future__ import annotations

import contextlib
from typing import Any, Iterator

from codegen.annotation import apply_annotation, read_annotation
from codegen.partitions import warp_specialized
from twill.errors import CompileError
from twill.ir import triton_hooks as hooks
from twill.ir.load import KernelSpec, source_of
from twill.machine.model import Machine
from twill.util import clip

PIPELINE_PASS = "add_pipeline"
SCHEDULE_PASS = "add_schedule_loops"
HOPPER_WS_PASS = "add_hopper_warpspec"
WS_PASS = "add_warp_specialize"


def warp_route(annotated: str, sm: int) -> tuple[tuple[str, ...], tuple[hooks.Insert, ...]]:
    """The pass-list edits (passes to skip, passes to insert) that make the installed Triton honour
    an annotation's partitions (``codegen.partitions``); none for a stages-only annotation.

    sm_100's ``make_ttgir`` runs ``add_warp_specialize`` (Triton's partitioner, which starts from
    the given ``ttg.partition``s) right after the schedule is applied: nothing to change. sm_90's
    runs ``add_hopper_warpspec`` instead, which ignores ``ttg.partition`` and turns pipelining off;
    it is skipped and ``add_warp_specialize(num_stages)`` inserted where ``add_pipeline`` runs, and
    ``add_pipeline`` is skipped too: with dots in two partitions Triton 3.6's wgmma pipeliner never
    returns (``dotCanBeProperlyAsync`` loops; fixed upstream after 3.6), and with one compute
    partition the pipelined module computed wrong results on the H200. The partitions keep
    ``num_warps`` each, their dots stay synchronous, and the loads run ahead through the buffers
    between partitions, ``num_stages`` deep.

    Examples
    --------
    >>> skip, insert = warp_route(ws_text, 90)       # doctest: +SKIP
    >>> skip, [i.binding for i in insert]            # doctest: +SKIP
    (('add_hopper_warpspec', 'add_pipeline'), ['passes.ttgpuir.add_warp_specialize'])
    """
    if not warp_specialized(annotated):
        return (), ()
    names = hooks.ttgir_passes(sm)
    if WS_PASS in names:
        return (), ()
    if PIPELINE_PASS not in names:
        raise CompileError("no place for warp specialization in this Triton's make_ttgir", where=f"sm_{sm}",
                           expected=f"{WS_PASS} or {PIPELINE_PASS}", found=", ".join(names[-6:]))
    skip = ((HOPPER_WS_PASS,) if HOPPER_WS_PASS in names else ()) + (PIPELINE_PASS,)
    return skip, (hooks.Insert("passes.ttgpuir.add_warp_specialize", PIPELINE_PASS, args=_num_stages),)


def _num_stages(options: Any) -> tuple[int]:
    return (int(getattr(options, "num_stages", 3)),)


def schedule_point(sm: int) -> str:
    """The ``make_ttgir`` pass a schedule is applied in front of: the one right after Triton's own
    ``schedule_loops``, where Triton's schedule is final and the loop is still the extracted one.

    On sm_90 that is ``add_pipeline``. On sm_100 it is ``add_warp_specialize``, which splits a
    ``warp_specialize=True`` loop into partitions by stage (adding barriers and buffer indexing)
    before the pipeliner runs, so a schedule applied later no longer matches the loop.

    Examples
    --------
    >>> schedule_point(90), schedule_point(100)     # doctest: +SKIP
    ('add_pipeline', 'add_warp_specialize')
    """
    names = hooks.ttgir_passes(sm)
    i = names.index(SCHEDULE_PASS) if SCHEDULE_PASS in names else len(names)
    # A callback runs before the first pass of its name: the next pass must not occur earlier.
    if i + 1 >= len(names) or names[i + 1] in names[:i + 1]:
        return PIPELINE_PASS
    return names[i + 1]


def schedule_plan(annotated: str, sm: int | None) -> hooks.PassPlan:
    """The pass plan that compiles a kernel with ``annotated``'s schedule for compute capability
    ``sm`` (``None``: apply the stages before ``add_pipeline`` and change no pass, the stages-only
    route on an unknown GPU)."""
    ann = read_annotation(annotated)
    point = schedule_point(sm) if sm is not None else PIPELINE_PASS
    skip, insert = warp_route(annotated, sm) if sm is not None else ((), ())
    skip = tuple(dict.fromkeys(hooks.SCHEDULED_SKIP + skip))   # the loop stays whole, as it was extracted
    return hooks.ACCUMULATOR_FLAGS + hooks.PassPlan(before=((point, lambda mod: apply_annotation(hooks.module_text(mod), ann)),),
                          skip=skip, insert=insert)


def explain(err: Exception) -> CompileError:
    """A Triton failure on a scheduled kernel, with the constraint the search should honour."""
    msg = str(err)
    if "predicate this op" in msg:
        return CompileError("Triton cannot realise the schedule: its pipeliner cannot predicate an op placed "
                            "before the last stage", where="tritongpu-pipeline",
                            expected="every warp_group_dot in the last stage (constraint last_stage)",
                            found=clip(msg.strip().splitlines()[-1], 200))
    if isinstance(err, CompileError):
        return err
    return CompileError(f"Triton failed to compile the scheduled kernel: {clip(msg.strip().splitlines()[-1], 200)}")


def compile_annotated(spec: KernelSpec, machine: Machine, annotated: str, options: dict[str, Any] | None = None) -> Any:
    """Offline: the ``CompiledKernel`` of ``spec`` with the annotated schedule, for ``machine``.

    Examples
    --------
    >>> k = compile_annotated(load_kernel("kernels/gemm.py", "h200"), load_machine("h200"), text)   # doctest: +SKIP
    >>> len(k.asm["cubin"]) > 0                                                                    # doctest: +SKIP
    True
    """
    plan = schedule_plan(annotated, machine.sm)
    failure: CompileError | None = None
    with hooks.mlir_warnings(), hooks.captured_stderr() as diag:
        try:
            return hooks.compile_planned(source_of(spec), machine.sm, dict(options or spec.options), plan)
        except CompileError as e:
            failure = e
    msg = hooks.first_error(diag)
    raise explain(RuntimeError(f"{failure}: {msg}") if msg else failure) from None


def check_annotation(spec: KernelSpec, machine: Machine, annotated: str) -> str | None:
    """Compile ``annotated`` offline for ``machine`` (to a cubin): None when it compiles, else the one
    line of Triton's error (``explain``'s)."""
    try:     # in a child process: an assertion in Triton's C++ is one line, not the end of twill
        hooks.contained(lambda: compile_annotated(spec, machine, annotated) and None, where=spec.name,
                  what="the annotated TTGIR")
    except CompileError as e:
        return str(e)
    return None


@contextlib.contextmanager
def scheduled(annotated: str, *kernels: Any, sm: int | None = None) -> Iterator[None]:
    """Within the block, compiling a kernel (a ``kernel[grid](...)`` launch) applies the annotated
    schedule. ``kernels`` are the JIT functions whose in-memory caches are cleared on entry and exit,
    so neither the default nor the scheduled binary leaks across the boundary. ``sm`` (default: the
    current GPU's when the annotation is warp-specialized) picks the pass where the schedule is
    applied and, for a warp-specialized annotation, the pass-list edits (``warp_route``)."""
    if sm is None and warp_specialized(annotated):
        sm = current_capability()
    with hooks.planned_launches(schedule_plan(annotated, sm), kernels):
        yield


def current_capability() -> int:
    """The current GPU's compute capability as one number (90 for sm_90)."""
    import torch

    major, minor = torch.cuda.get_device_capability()
    return major * 10 + minor
