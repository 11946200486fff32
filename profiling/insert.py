"""Insert Proton ``proton.record`` ops into a kernel's TTGIR around each graph node's ops, by node id
(the KPerfIR, compiler-centric way: the user's kernel is not edited).

Two insertion points, both a ``twill.ir.triton_hooks.PassPlan``:
- before ``assign_latencies`` (pre-pipeline TTGIR, the IR the graph was built from): one region per
  node, named by its id, around the contiguous run of the node's ops; the pipeliner then moves the
  records with the ops, exactly as it does for ``pl.enter_scope`` regions written in the source;
- after the last TTGIR pass: one region around each wait the pipeliner made for an asynchronous op
  (``ttng.warp_group_dot_wait``, ``ttng.wait_barrier``), named ``wait:<op>:<k>``, so that waits are
  timed apart from issues.
"""
from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any, Iterator

from profiling.unroll import unroll_recording
from twill.errors import CompileError
from twill.graph.locate import graph_loop, node_of_value
from twill.graph.model import LoopGraph
from twill.ir import ttgir, vocab
from twill.ir.load import KernelSpec, source_of
from twill.ir.triton_hooks import ACCUMULATOR_FLAGS, END, PRE_PIPELINE_PASS, SCHEDULED_SKIP, PassPlan, compile_planned, module_text


@dataclass(frozen=True)
class Region:
    """One inserted region: its name (a node id or ``wait:...``) and the TTGIR op names it encloses."""

    name: str
    ops: tuple[str, ...]
    node: str | None




def _record(indent: int, kind: str, name: str) -> str:
    return " " * indent + f'proton.record {kind} "{name}"'


def insert_node_records(text: str, g: LoopGraph, nodes: tuple[str, ...] | None = None) -> tuple[str, list[Region]]:
    """Pre-pipeline TTGIR with a region per node around the node's contiguous run of ops.

    A node whose ops are interleaved with another's is cut to its first run: regions never overlap
    (Proton pairs records by name; overlapping regions would time each other's records).
    """
    lines = text.splitlines()
    span = graph_loop(lines, g)
    owner = node_of_value(g)
    want = set(nodes) if nodes is not None else set(g.ids)
    body = [b for b in ttgir.region_ops(lines, span) if b.name != vocab.YIELD]
    runs: list[tuple[str, int, int, list[str]]] = []   # (node, first line, last line, op names)
    for b in body:
        node = owner.get(b.result or "")
        if node is None or node not in want:
            if runs and runs[-1][0] is not None:
                runs.append((None, b.first, b.attr_line, [b.name]))   # type: ignore[arg-type]
            continue
        if runs and runs[-1][0] == node:
            n, f, _, names = runs[-1]
            runs[-1] = (n, f, b.attr_line, names + [b.name])
        else:
            runs.append((node, b.first, b.attr_line, [b.name]))
    seen: set[str] = set()
    inserts: dict[int, list[str]] = {}
    regions: list[Region] = []
    for node, f, last, names in runs:
        if node is None or node in seen:
            continue
        seen.add(node)
        ind = len(lines[f]) - len(lines[f].lstrip())
        inserts.setdefault(f, []).append(_record(ind, "start", node))
        inserts.setdefault(last + 1, []).insert(0, _record(ind, "end", node))
        regions.append(Region(node, tuple(names), node))
    if not regions:
        raise CompileError("no region inserted", where=g.name, expected="loop ops of the graph's nodes", found="none")
    out: list[str] = []
    for i, line in enumerate(lines):
        out.extend(inserts.get(i, []))
        out.append(line)
    out.extend(inserts.get(len(lines), []))
    return "\n".join(out) + "\n", regions


def insert_wait_records(text: str, names: frozenset[str] | None = None) -> tuple[str, list[Region]]:
    """Final TTGIR with a region around each wait op at the top level of the pipelined loop body (``names``: only
    around the waits so named, ``wait:<op>:<k>``)."""
    lines = text.splitlines()
    fors = ttgir.loops(lines)
    regions: list[Region] = []
    inserts: dict[int, list[str]] = {}
    counts: dict[str, int] = {}
    for f in fors:
        for b in ttgir.region_ops(lines, f):
            if b.name not in vocab.ASYNC_WAITS:
                continue
            short = b.name.split(".")[-1]
            k = counts.get(short, 0)
            counts[short] = k + 1
            name = f"wait:{short}:{k}"
            if names is not None and name not in names:
                continue
            ind = len(lines[b.first]) - len(lines[b.first].lstrip())
            inserts.setdefault(b.first, []).append(_record(ind, "start", name))
            inserts.setdefault(b.attr_line + 1, []).insert(0, _record(ind, "end", name))
            regions.append(Region(name, (b.name,), None))
        if counts:
            break   # the first loop with waits: the pipelined main loop
    out: list[str] = []
    for i, line in enumerate(lines):
        out.extend(inserts.get(i, []))
        out.append(line)
    return "\n".join(out) + "\n", regions


def record_plan(g: LoopGraph, regions: list[Region], waits: bool | tuple[str, ...] = True,
                nodes: tuple[str, ...] | None = None, every: int = 1) -> PassPlan:
    """The pass plan that inserts the records; ``regions`` receives what was inserted; ``nodes``
    limits the node regions to those ids (``()``: none), ``waits`` the wait regions to those named (``True``: every
    wait, ``False`` or ``()``: none); ``every`` > 1: the loop records one iteration in ``every``
    (``profiling.unroll.unroll_recording``). Add a schedule's plan to it to profile a scheduled kernel."""

    def load(mod: Any) -> None:
        from triton._C.libtriton import proton

        proton.load_dialects(mod.context)

    def pre(mod: Any) -> str:
        load(mod)
        text, r = insert_node_records(module_text(mod), g, nodes)
        regions.extend(r)
        return text

    def end(mod: Any) -> str:
        load(mod)
        text = module_text(mod)
        if waits:
            text, r = insert_wait_records(text, None if waits is True else frozenset(waits or ()))
            regions.extend(r)
        return unroll_recording(text, every) if every > 1 else text

    # the loop as it was extracted: Triton's Hopper warp specialization would split it first
    if nodes == () and not waits:
        raise CompileError("no region to insert", where=g.name, expected="node regions or the waits", found="neither")
    return ACCUMULATOR_FLAGS + PassPlan(before=(((PRE_PIPELINE_PASS, pre),) if nodes != () else ())
                                        + (((END, end),) if waits or every > 1 else ()), skip=SCHEDULED_SKIP)


@contextlib.contextmanager
def offline_instrumentation(max_shared_mem: int, sampling: str = "0,4", buffer_type: str = "shared",
                            buffer_size: int = 0, clock32: bool = False) -> Iterator[Any]:
    """Register Proton's lowering passes with the NVIDIA backend without a GPU (what
    ``proton.start(backend="instrumentation")`` does on one), so instrumented kernels compile offline.
    ``max_shared_mem`` is the target's shared memory per CTA (Proton's shared buffer is sized from it)."""
    import triton
    from triton._C.libtriton import passes, proton as tp
    from triton.backends import backends
    from triton.profiler import mode as pmode
    from triton.profiler.flags import flags

    kw: dict[str, Any] = {"buffer_type": buffer_type, "buffer_size": buffer_size,
                          "optimizations": "clock32" if clock32 else ""}
    if sampling != "all":
        kw.update(sampling_strategy="selective", sampling_options=sampling)
    m = pmode.Default(**kw)

    def llir(pm: Any) -> None:
        tp.add_convert_proton_to_protongpu(pm, m.metric_type, m.sampling_strategy, m.sampling_options, m.granularity,
                                           m.buffer_strategy, m.buffer_type, m.buffer_size, max_shared_mem, 1, 128,
                                           not clock32)
        passes.common.add_cse(pm)
        tp.add_allocate_proton_shared_memory(pm)

    def llvm(pm: Any) -> None:
        if hasattr(tp, "add_allocate_proton_global_scratch_buffer"):    # 3.6's; 3.9 allocates it in the lowering
            tp.add_allocate_proton_global_scratch_buffer(pm)
        tp.add_convert_proton_nvidia_gpu_to_llvm(pm)

    compiler = backends["nvidia"].compiler
    old = (getattr(compiler, "instrumentation", None), triton.knobs.compilation.instrumentation_mode,
           flags.instrumentation_on)
    points = {"load-dialects": tp.load_dialects, "ttgpuir-to-llvmir": llir, "llvmir-to-llvm": llvm}
    try:
        from triton._instrumentation import register_instrumentation, unregister_instrumentation
    except ImportError:          # Triton 3.6: the backend's compiler holds the passes
        from triton.profiler.hooks.instrumentation import Instrumentation
        compiler.instrumentation = Instrumentation({"ttgpuir_to_llvmir": llir, "llvmir_to_llvm": llvm})
        register_instrumentation = unregister_instrumentation = None
    else:                        # Triton 3.9: registered by point and backend
        for point, callback in points.items():
            register_instrumentation(point=point, backend="nvidia", callback=callback)
    triton.knobs.compilation.instrumentation_mode = str(m)
    flags.instrumentation_on = True
    try:
        yield m
    finally:
        if unregister_instrumentation is not None:
            for point in points:
                unregister_instrumentation(point=point, backend="nvidia")
        else:
            compiler.instrumentation = old[0]
        triton.knobs.compilation.instrumentation_mode, flags.instrumentation_on = old[1:]


def find_breaking_regions(spec: KernelSpec, sm: int, smem: int, g: LoopGraph, schedule: PassPlan = PassPlan(),
                          **mode: Any) -> list[tuple[str, str]]:
    """Offline, before any launch: ``[]`` when the instrumented kernel (with ``schedule``'s plan, if
    any) compiles for compute capability ``sm`` with ``smem`` bytes of shared memory, else each region
    that breaks compilation on its own, with Triton's first error line (``("<all>", error)`` when no
    single region does)."""

    def attempt(nodes: tuple[str, ...] | None, waits: bool) -> str | None:
        with offline_instrumentation(smem, **mode):
            try:
                compile_planned(source_of(spec), sm, spec.options, schedule + record_plan(g, [], waits, nodes))
            except CompileError as e:
                return str(e)
        return None

    err = attempt(None, True)
    if err is None:
        return []
    broken = [(n, e) for n in g.ids for e in [attempt((n,), False)] if e is not None]
    return broken or [("<all>", err)]
