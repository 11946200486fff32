"""Insert Proton ``proton.record`` ops into a kernel's TTGIR around each graph node's ops, by node id
(the KPerfIR, compiler-centric way: the user's kernel is not edited).

Two insertion points, both through ``twill.ir.pipeline``'s pass replay:
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

from codegen.text import body_ops, ops_of
from twill.errors import CompileError
from twill.graph.model import LoopGraph

WAIT_OPS = ("ttng.warp_group_dot_wait", "ttng.wait_barrier")
PRE_PIPELINE_PASS = "add_assign_latencies"
H200_MAX_SHARED = 232448


@dataclass(frozen=True)
class Region:
    """One inserted region: its name (a node id or ``wait:...``) and the TTGIR op names it encloses."""

    name: str
    ops: tuple[str, ...]
    node: str | None


def _owner(g: LoopGraph) -> dict[str, str]:
    from codegen.annotate import _node_of_result

    return _node_of_result(g)


def _loop(lines: list[str], g: LoopGraph) -> tuple[int, int]:
    owner = _owner(g)
    for o in ops_of(lines):
        if o.name == "scf.for" and any(b.result in owner for b in body_ops(lines, (o.first, o.attr_line))):
            return o.first, o.attr_line
    raise CompileError("graph does not match the IR", where=g.name, expected="a loop holding the graph's SSA names",
                       found="none")


def _record(indent: int, kind: str, name: str) -> str:
    return " " * indent + f'proton.record {kind} "{name}"'


def insert_node_records(text: str, g: LoopGraph, nodes: tuple[str, ...] | None = None) -> tuple[str, list[Region]]:
    """Pre-pipeline TTGIR with a region per node around the node's contiguous run of ops.

    A node whose ops are interleaved with another's is cut to its first run: regions never overlap
    (Proton pairs records by name; overlapping regions would time each other's records).
    """
    lines = text.splitlines()
    span = _loop(lines, g)
    owner = _owner(g)
    want = set(nodes) if nodes is not None else set(g.ids)
    body = [b for b in body_ops(lines, span) if b.name != "scf.yield"]
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


def insert_wait_records(text: str) -> tuple[str, list[Region]]:
    """Final TTGIR with a region around each wait op at the top level of the pipelined loop body."""
    lines = text.splitlines()
    fors = [o for o in ops_of(lines) if o.name == "scf.for"]
    regions: list[Region] = []
    inserts: dict[int, list[str]] = {}
    counts: dict[str, int] = {}
    for f in fors:
        for b in body_ops(lines, (f.first, f.attr_line)):
            if b.name not in WAIT_OPS:
                continue
            short = b.name.split(".")[-1]
            k = counts.get(short, 0)
            counts[short] = k + 1
            name = f"wait:{short}:{k}"
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


def callbacks(g: LoopGraph, regions: list[Region], waits: bool = True,
              before: dict[str, Any] | None = None, nodes: tuple[str, ...] | None = None) -> dict[str, Any]:
    """Pass-replay callbacks that insert the records; ``regions`` receives what was inserted.
    ``before`` adds other callbacks (e.g. a schedule's, before ``add_pipeline``); ``nodes`` limits
    the node regions to those ids."""
    from twill.ir.pipeline import END, module_text

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
        text, r = insert_wait_records(module_text(mod))
        regions.extend(r)
        return text

    cbs: dict[str, Any] = dict(before or {})
    cbs[PRE_PIPELINE_PASS] = pre
    if waits:
        cbs[END] = end
    return cbs


@contextlib.contextmanager
def offline_instrumentation(sampling: str = "0,4", buffer_type: str = "shared", buffer_size: int = 0,
                            max_shared_mem: int = H200_MAX_SHARED, clock32: bool = False) -> Iterator[Any]:
    """Register Proton's lowering passes with the NVIDIA backend without a GPU (what
    ``proton.start(backend="instrumentation")`` does on one), so instrumented kernels compile offline."""
    import triton
    from triton._C.libtriton import passes, proton as tp
    from triton.backends import backends
    from triton.profiler import mode as pmode
    from triton.profiler.flags import flags
    from triton.profiler.hooks.instrumentation import Instrumentation

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
        tp.add_allocate_proton_global_scratch_buffer(pm)
        tp.add_convert_proton_nvidia_gpu_to_llvm(pm)

    compiler = backends["nvidia"].compiler
    old = (compiler.instrumentation, triton.knobs.compilation.instrumentation_mode, flags.instrumentation_on)
    compiler.instrumentation = Instrumentation({"ttgpuir_to_llvmir": llir, "llvmir_to_llvm": llvm})
    triton.knobs.compilation.instrumentation_mode = str(m)
    flags.instrumentation_on = True
    try:
        yield m
    finally:
        compiler.instrumentation, triton.knobs.compilation.instrumentation_mode, flags.instrumentation_on = old


def compile_instrumented(spec: Any, arch: str, g: LoopGraph, annotated: str | None = None,
                         **mode: Any) -> tuple[Any, list[Region]]:
    """Offline: the instrumented ``CompiledKernel`` (optionally with a twill schedule) and its regions.

    A failure names the regions, so the one that broke compilation can be found.
    """
    from twill.ir.load import source_of
    from twill.ir.pipeline import compile_with_callbacks

    regions: list[Region] = []
    before = None
    if annotated is not None:
        from codegen.compile import _callbacks

        before = _callbacks(annotated)
    with offline_instrumentation(**mode):
        try:
            k = compile_with_callbacks(source_of(spec), arch, spec.options, callbacks(g, regions, before=before))
        except CompileError as e:
            names = ", ".join(r.name for r in regions) or "none inserted yet"
            raise CompileError(f"instrumented kernel failed to compile: {e}", where=f"regions: {names}") from None
    return k, regions


def find_breaking_regions(spec: Any, arch: str, g: LoopGraph, annotated: str | None = None,
                          **mode: Any) -> list[tuple[str, str]]:
    """Offline, before any launch: ``[]`` when the instrumented kernel compiles, else each region that
    breaks compilation on its own, with Triton's first error line (``("<all>", error)`` when no
    single region does)."""
    from twill.ir.load import source_of
    from twill.ir.pipeline import compile_with_callbacks

    before = None
    if annotated is not None:
        from codegen.compile import _callbacks

        before = _callbacks(annotated)

    def attempt(nodes: tuple[str, ...] | None, waits: bool) -> str | None:
        with offline_instrumentation(**mode):
            try:
                compile_with_callbacks(source_of(spec), arch, spec.options,
                                       callbacks(g, [], waits=waits, before=before, nodes=nodes))
            except CompileError as e:
                return str(e)
        return None

    err = attempt(None, True)
    if err is None:
        return []
    broken = [(n, e) for n in g.ids for e in [attempt((n,), False)] if e is not None]
    return broken or [("<all>", err)]
