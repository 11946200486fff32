"""Warp specialization of the annotated loop through Triton's own passes: a joint schedule's warp
groups become Triton partitions (``codegen.partitions``), checked by compiling, with a fall back to
the stages-only annotation when Triton rejects them.

What Triton 3.6 does with them (found by compiling offline and running on the H200): it rejects a
loaded tile read by two partitions (FA3's ping-pong, sub-tile i on compute group i: ``NVWSInsertAref``
fails without a diagnostic); its sm_90 wgmma pipeliner never returns on a loop with dots in two
partitions, so ``codegen.compile.warp_route`` skips it there (``annotate`` still compiles in a child
process with a time limit); on sm_90 a lone compute partition beside the loads computes wrong
results pipelined and runs at 0.25x unpipelined; and every partition gets the kernel's ``num_warps``
(``partition-loops``; Triton 3.6 reads no per-partition warp count from the loop, so the schedule's
``warps_per_group`` is recorded in the header only).

Realisability, as ``codegen.placement`` projects stages, in this order: on sm_90 a partitioning with
one compute partition, or with warp groups narrower than ``num_warps``, is not written; a loaded tile
read by several partitions is loaded once per reading partition (``privatize``); the buffers between
partitions are made shallower until they fit shared memory (``fitting_depth``, the launch's
``num_stages``); failing that, the groups reading a common tile are merged into one partition; failing
that, the stages-only annotation is written. The file's header says which, and why.
"""
from __future__ import annotations

import multiprocessing as mp
import os
import re
from dataclasses import dataclass, replace
from typing import Any

from codegen.annotate import annotate_ttgir
from codegen.compile import compile_annotated
from codegen.partitions import (PARTITION_RE, Partitions, add_partitions, annotated_loop, partitions, privatize,
                                shared_tiles)
from codegen.placement import placement
from twill.errors import CompileError, TwillError
from twill.graph.model import LoopGraph
from twill.ir import ttgir
from twill.ir.load import KernelSpec
from twill.machine.model import Machine
from twill.schedule.model import Schedule



@dataclass(frozen=True)
class AnnotateResult:
    """The annotated TTGIR ``twill optimize`` writes, and whether it is warp-specialized.

    ``reason`` says why not (no warp map, one group, Triton's error) or, when it is, which partitions
    it has; ``partitions`` is the assignment written (or the one tried, when none was); ``projected``
    says that warp groups were merged to make Triton compile it (``merge_readers``).
    """

    text: str
    warp_specialized: bool
    reason: str
    partitions: Partitions | None = None
    checked: bool = False
    projected: bool = False
    private: tuple[str, ...] = ()
    num_stages: int | None = None

    def line(self) -> str:
        """One line for the command's output."""
        if self.warp_specialized:
            how = "compiled offline" if self.checked else "not compiled (no kernel source to check it with)"
            if self.num_stages is not None:
                how += f", launch with num_stages={self.num_stages}"
            return f"warp specialization: {self.partitions.count if self.partitions else 0} partitions ({how}): " \
                   f"{self.reason}"
        return f"warp specialization: none, stages only ({self.reason})"

    def to_dict(self) -> dict[str, Any]:
        return {"warp_specialized": self.warp_specialized, "reason": self.reason, "checked": self.checked,
                "projected": self.projected, "private": list(self.private), "num_stages": self.num_stages,
                "partitions": self.partitions.to_dict() if self.partitions else None}


CHECK_TIMEOUT = 120.0   # seconds (a compile takes 2-10 s): Triton 3.6 can loop forever on a partitioned loop


def annotate(pre_ttgir: str, g: LoopGraph, s: Schedule, machine: Machine, spec: KernelSpec | None = None,
             triton_version: str | None = None, distance: int | None = None,
             timeout: float = CHECK_TIMEOUT) -> AnnotateResult:
    """The annotated TTGIR of ``s``: stages and clusters (``codegen.annotate``) and, when ``s`` has a
    warp map of two or more groups, Triton partitions.

    With ``spec`` (the kernel's specialisation) the partitioned module is compiled offline (in a
    child process, at most ``timeout`` seconds). If Triton rejects it and some loaded tile is read by
    several partitions (which Triton 3.6 cannot compile), the warp map is projected onto what it can:
    the groups reading a common tile become one partition, and that is compiled in turn. If that is
    rejected too, the result is the stages-only annotation. The header says what was given up and why.

    Examples
    --------
    >>> r = annotate(pre, graph, joint, load_machine("h100"), load_kernel("kernels/fa3_subtiled.py", "h100"))  # doctest: +SKIP
    >>> r.warp_specialized, r.line()                                                             # doctest: +SKIP
    (True, 'warp specialization: 2 partitions (compiled offline): partition 0 = compute group 0 ...')
    """
    stages_only = annotate_ttgir(pre_ttgir, g, s, machine, triton_version, distance=distance)
    if not s.warp:
        return AnnotateResult(stages_only, False, "the schedule has no warp assignment (modulo schedule only)")
    stage = placement(g, s, machine, triton_version, distance=distance).stage_map
    parts = partitions(g, s, stage)
    if parts is None:
        return AnnotateResult(stages_only, False, "the warp assignment uses one warp group")
    lone = _lone_consumer(parts, machine) or _partition_width(parts, machine, g.get("num_warps"))
    if lone:
        return AnnotateResult(_with_header(stages_only, [f"// twill: warp specialization not written: {lone}",
                                                         f"// twill: the assignment: {parts.describe()}"]),
                              False, lone, parts)
    text = _partitioned(stages_only, g, parts)
    if spec is None:
        return AnnotateResult(text, True, parts.describe(), parts)
    error, depth = fitting_depth(spec, machine, text, timeout)
    if error is None:
        return AnnotateResult(text, True, parts.describe(), parts, checked=True, num_stages=depth)
    reason = f"Triton rejected the partitions: {blame(error, text)}"
    shared = shared_tiles(text, g, parts)
    if shared:
        why = ", ".join(f"the tile of {n} is read by partitions {' and '.join(map(str, ps))}" for n, ps in shared)
        reason += f"; {why} (Triton 3.6 passes a loaded tile to one consumer partition)"
        lines = text.splitlines()
        plines, done = privatize(lines, annotated_loop(lines))
        if done:
            what = ", ".join(f"{n} loaded once for each of partitions {' and '.join(map(str, ps))}" for n, ps in done)
            text_p = _with_header("\n".join(plines) + "\n", [f"// twill: tiles privatized: {what}",
                                                               f"// twill: tried first as written: {reason}"])
            error_p, depth = fitting_depth(spec, machine, text_p, timeout)
            if error_p is None:
                return AnnotateResult(text_p, True, f"{parts.describe()} ({what})", parts, checked=True,
                                      private=tuple(n for n, _ in done), num_stages=depth)
            reason += f"; with the tiles privatized: {blame(error_p, text_p)}"
        merged, joined = merge_readers(g, s, parts, shared, stage)
        if merged is not None and _lone_consumer(merged, machine):
            reason += f"; merging the groups that read them leaves {_lone_consumer(merged, machine)}"
        elif merged is not None:
            text2 = _partitioned(stages_only, g, merged)
            error2, depth = fitting_depth(spec, machine, text2, timeout)
            if error2 is None:
                what = f"warp groups {' and '.join(map(str, joined))} share one partition, since {why}"
                text2 = _with_header(text2, [f"// twill: warp assignment projected: {what}",
                                             f"// twill: tried first {parts.describe()}: {reason}"])
                return AnnotateResult(text2, True, f"{merged.describe()} (projected: {what})", merged,
                                      checked=True, projected=True, num_stages=depth)
    fallback = _with_header(stages_only, [f"// twill: warp specialization given up: {reason}",
                                          f"// twill: tried {parts.describe()}"])
    return AnnotateResult(fallback, False, reason, parts, checked=True)


def _lone_consumer(parts: Partitions, machine: Machine) -> str | None:
    """Why a partitioning is not written on sm_90, or None. With one compute partition (a producer
    for the loads and nothing else) Triton 3.6 either miscompiles (pipelined: wrong results on the
    H200, relative error 5e-2) or runs at a quarter of the speed (unpipelined: 123.7 against 497.9
    TFLOP/s on the H200). The ping-pong (two compute partitions) is the case that runs correct and
    faster there."""
    if machine.sm != 90:
        return None
    compute = [r for r in parts.roles if r.startswith("compute group")]
    if len(compute) >= 2:
        return None
    return ("one compute partition beside the loads' on sm_90: Triton 3.6 miscompiles it when pipelined and "
            "runs it at 0.25x unpipelined; the stages alone are written")


def _partition_width(parts: Partitions, machine: Machine, num_warps: Any) -> str | None:
    """Why a partitioning is not written on sm_90, or None: Triton 3.6 gives every partition the
    kernel's ``num_warps`` (``partition-loops``; ``optimize-partition-warps``, which would shrink them,
    fails on the sm_90 route), so a schedule whose warp groups are narrower than ``num_warps`` would
    run with each group duplicated across the extra warps and a register budget split three ways."""
    if machine.sm != 90 or not parts.warps_per_group or not num_warps:
        return None
    if int(num_warps) == int(parts.warps_per_group):
        return None
    return (f"the schedule's warp groups are {parts.warps_per_group} warps wide, but Triton 3.6 gives every "
            f"partition the kernel's num_warps ({num_warps}) on sm_90: solve with --num-warps {parts.warps_per_group}")


def _partitioned(stages_only: str, g: LoopGraph, parts: Partitions) -> str:
    header = f"// twill warp specialization: {parts.describe()}; partition stages {list(parts.stages)}"
    if parts.warps_per_group:
        header += f"; the schedule assumed {parts.warps_per_group} warps per group (Triton sizes the partitions)"
    return _with_header(add_partitions(stages_only, g, parts), [header])


def merge_readers(g: LoopGraph, s: Schedule, parts: Partitions, shared: list[tuple[str, list[int]]],
                  stage: dict[str, int]) -> tuple[Partitions | None, list[int]]:
    """The partitions of ``s`` with the warp groups that read a common loaded tile merged into the
    lowest of them, and the groups merged; None when fewer than two partitions remain."""
    group_of = {p: grp for grp, p in parts.group}
    rep = {grp: grp for grp in group_of.values()}

    def find(x: int) -> int:
        while rep[x] != x:
            x = rep[x]
        return x

    for _, readers in shared:
        groups = sorted(find(group_of[p]) for p in readers)
        for other in groups[1:]:
            rep[other] = groups[0]
    members: dict[int, list[int]] = {}
    for grp in rep:
        members.setdefault(find(grp), []).append(grp)
    joined = sorted(x for ms in members.values() if len(ms) > 1 for x in ms)
    merged = replace(s, warp=tuple((v, find(w)) for v, w in s.warp))
    return partitions(g, merged, stage), joined


def fitting_depth(spec: KernelSpec, machine: Machine, annotated: str,
                  timeout: float = CHECK_TIMEOUT) -> tuple[str | None, int | None]:
    """(None, num_stages) for the deepest ``num_stages`` <= the kernel's at which ``annotated``
    compiles and fits the arch's shared memory, else (Triton's error, None). In a warp-specialized
    loop ``num_stages`` is the depth of the buffers between partitions (Triton's ``aref``s): the
    loads' exposed pipeline depth of paper 5.3, lowered until the buffers fit."""
    error = None
    for depth in range(max(1, int(spec.options.get("num_stages") or 1)), 0, -1):
        error = check_compiles(spec, machine, annotated, timeout, dict(spec.options, num_stages=depth))
        if error is None:
            return None, depth
        if not error.startswith(SMEM_ERROR):
            return error, None
    return error, None


SMEM_ERROR = "needs more shared memory than the SM has"


def check_compiles(spec: KernelSpec | None, machine: Machine, annotated: str, timeout: float = CHECK_TIMEOUT,
                   options: dict[str, Any] | None = None) -> str | None:
    """None when ``annotated`` compiles to cubin for ``machine`` and fits its shared memory, else
    Triton's error (or the shared-memory shortfall) on one line. The compilation runs in a forked
    child so that a pass that never returns (Triton 3.6's pipeliner on some partitioned loops) costs
    ``timeout`` seconds, not the process."""
    def shared_of(k: Any) -> int:
        return int(getattr(k.metadata, "shared", 0) or 0)

    try:
        ctx = mp.get_context("fork")
    except ValueError:   # no fork (not Linux / macOS): compile here, without a time limit
        try:
            result: Any = shared_of(compile_annotated(spec, machine, annotated, options))
        except TwillError as e:
            return str(e)
    else:
        recv, send = ctx.Pipe(duplex=False)

        def child() -> None:
            try:
                send.send(shared_of(compile_annotated(spec, machine, annotated, options)))
            except BaseException as e:   # noqa: BLE001 - everything goes back to the parent as text
                send.send(str(e) or type(e).__name__)
            finally:
                send.close()
                os._exit(0)

        proc = ctx.Process(target=child, daemon=True)
        proc.start()
        send.close()
        try:
            if not recv.poll(timeout):
                return f"Triton did not finish compiling within {timeout:.0f} s (a pass loops on this partitioning)"
            result = recv.recv()
        except EOFError:
            return f"the compiling process died (exit code {proc.exitcode})"
        finally:
            if proc.is_alive():
                proc.kill()
            proc.join()
    if isinstance(result, str):
        return result
    limit = machine.smem_per_cta
    if result > limit:
        depth = (options or spec.options).get("num_stages")
        return f"{SMEM_ERROR}: {result} bytes at num_stages={depth}, the limit is {limit}"
    return None


def _with_header(text: str, lines: list[str]) -> str:
    """``text`` with ``lines`` added after its leading ``// twill`` comments."""
    body = text.splitlines()
    k = 0
    while k < len(body) and body[k].startswith("// twill"):
        k += 1
    return "\n".join(body[:k] + lines + body[k:]) + "\n"


def blame(message: str, annotated: str) -> str:
    """Triton's error, with the partition and twill node of the op it names when the message gives
    an op's source location or a partition index."""
    msg = message.strip().splitlines()[-1] if message.strip() else message
    for prefix in ("PassManager::run failed: ", "Triton failed to compile the kernel: "):
        if prefix in msg:   # the wrappers' prefixes: keep Triton's own words
            msg = msg.rsplit(prefix, 1)[1]
    m = re.search(r"partition (?:#|index )(\d+)", msg)
    where = []
    if m:
        where.append(f"partition {m.group(1)}")
    lines = annotated.splitlines()
    for name in re.findall(r"'([a-z_]+\.[\w.]+)' op", msg):
        try:
            span = annotated_loop(lines)
        except CompileError:
            break
        for b in ttgir.region_ops(lines, span):
            if b.name == name:
                mpart = PARTITION_RE.search(lines[b.attr_line])
                mn = re.search(r'twill\.node = "([^"]+)"', lines[b.attr_line])
                where.append(f"{name}" + (f" of node {mn.group(1)}" if mn else "") +
                             (f" in partition {mpart.group(1).strip()}" if mpart else ""))
                break
    return msg + (f" [{'; '.join(where)}]" if where else "")
