"""The loop dependence graph: tile-level ops of one loop body and the edges between them."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Iterable

from twill.errors import GraphError

# Op kinds, as the paper's section 3.1 uses them (tile-level operations).
KINDS = (
    "load",          # global load (tt.load), variable latency
    "tma_load",      # TMA / descriptor load (tt.descriptor_load, async_tma_copy), variable latency
    "local_alloc",   # shared-memory allocation (ttg.local_alloc)
    "local_load",    # shared-memory -> registers (ttg.local_load)
    "local_store",   # registers -> shared memory (ttg.local_store)
    "dot",           # tensor-core dot (ttng.warp_group_dot, ttng.tc_gen5_mma, tt.dot)
    "tmem_load",     # tensor memory -> registers (ttng.tmem_load), Blackwell
    "tmem_store",    # registers -> tensor memory (ttng.tmem_store), Blackwell
    "sfu",           # special-function math (exp2, exp, log, rsqrt, ...)
    "reduce",        # tt.reduce (row max, row sum, ...)
    "elementwise",   # tile arithmetic (mul, add, sub, select, ...)
    "convert",       # layout conversions and casts (ttg.convert_layout, arith.truncf, ...)
    "broadcast",     # tt.broadcast / expand_dims / reshape: data movement in registers
    "store",         # global store / TMA store / atomics
    "barrier",       # a CTA barrier (tl.debug_barrier): orders the memory accesses around it
)

# The value text of a memory edge: ``memory %buffer`` (the kernel argument both accesses trace to).
MEMORY = "memory "

# Functional units a machine model may provide.
UNITS = ("tc", "sfu", "alu", "tma", "lsu")


@dataclass(frozen=True)
class Reservation:
    """One row group of a resource reservation table: ``count`` instances of ``unit`` are busy
    for ``length`` cycles starting ``offset`` cycles after the op issues."""

    unit: str
    offset: int
    length: int
    count: int = 1

    def __post_init__(self) -> None:
        if self.offset < 0 or self.length < 0 or self.count < 0:
            raise GraphError("negative reservation", found=repr(self))


@dataclass(frozen=True)
class Op:
    """A tile-level operation of the loop body (a node of the dependence graph).

    ``ops`` are the TTGIR op names folded into this node (the defining op first); ``ir`` the
    matching TTGIR text lines, for traceability. Footprints are bytes per CTA of the node's
    result: ``regs`` in the register file, ``smem`` in shared memory, ``tmem`` in tensor memory.
    ``cycles`` and ``rrt`` are empty until costs are annotated; ``cost_source`` says where they
    came from ("model", "profile", or "graph" when read from a graph file).
    """

    id: str
    kind: str
    unit: str
    ops: tuple[str, ...] = ()
    ir: tuple[str, ...] = ()
    line: int | None = None
    file: str | None = None
    shape: tuple[int, ...] = ()
    dtype: str = ""
    variable_latency: bool = False
    streaming: bool = False
    regs: int = 0
    smem: int = 0
    tmem: int = 0
    attrs: tuple[tuple[str, Any], ...] = ()
    cycles: int | None = None
    rrt: tuple[Reservation, ...] = ()
    cost_source: str | None = None

    def __post_init__(self) -> None:
        if not self.id:
            raise GraphError("op without an id", found=repr(self))
        if self.kind not in KINDS:
            raise GraphError("unknown op kind", where=self.id, expected=" | ".join(KINDS), found=self.kind)
        if self.cycles is not None and self.cycles < 0:
            raise GraphError("negative cycle count", where=self.id, found=str(self.cycles))

    def attr(self, name: str, default: Any = None) -> Any:
        return dict(self.attrs).get(name, default)

    @property
    def where(self) -> str:
        """Location for error messages: ``node (file:line)``."""
        loc = f"{self.file or '?'}:{self.line}" if self.line is not None else None
        return f"{self.id} ({loc})" if loc else self.id


@dataclass(frozen=True)
class Dep:
    """A dependence ``(src, dst, delay, distance)``: the instance of ``dst`` in iteration i issues
    at least ``delay`` cycles after the instance of ``src`` in iteration ``i - distance``.

    ``delay`` is None until costs are annotated (it is then the source's latency). ``blocking``
    marks a consumer that must wait on an asynchronous producer (async dot, TMA load).
    ``value`` names the SSA value carried, for traceability.
    """

    src: str
    dst: str
    delay: int | None = None
    distance: int = 0
    blocking: bool = False
    value: str = ""

    @property
    def memory(self) -> bool:
        """An ordering edge between two accesses of one buffer (``twill.graph.memory``), not an SSA value."""
        return self.value.startswith(MEMORY)

    def __post_init__(self) -> None:
        if self.distance < 0:
            raise GraphError("negative iteration distance", where=f"{self.src}->{self.dst}",
                             found=str(self.distance))
        if self.delay is not None and self.delay < 0:
            raise GraphError("negative delay", where=f"{self.src}->{self.dst}", found=str(self.delay))


@dataclass(frozen=True)
class LoopGraph:
    """The dependence graph of one loop: ops in program order and their dependences.

    ``meta`` carries provenance as sorted key/value pairs (kernel, arch, num_warps, loop line,
    source hash, Triton version, ...).
    """

    name: str
    ops: tuple[Op, ...]
    deps: tuple[Dep, ...]
    meta: tuple[tuple[str, Any], ...] = field(default=())

    def __post_init__(self) -> None:
        seen: set[str] = set()
        for op in self.ops:
            if op.id in seen:
                raise GraphError("duplicate op id", where=self.name, found=op.id)
            seen.add(op.id)
        for d in self.deps:
            for end in (d.src, d.dst):
                if end not in seen:
                    raise GraphError("edge refers to an unknown op", where=f"{self.name}: {d.src}->{d.dst}",
                                     expected="one of the graph's op ids", found=end)

    # -- access ---------------------------------------------------------------------------
    def op(self, op_id: str) -> Op:
        for o in self.ops:
            if o.id == op_id:
                return o
        raise GraphError("unknown op", where=self.name, found=op_id)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(o.id for o in self.ops)

    def get(self, key: str, default: Any = None) -> Any:
        return dict(self.meta).get(key, default)

    def preds(self, op_id: str) -> tuple[Dep, ...]:
        return tuple(d for d in self.deps if d.dst == op_id)

    def succs(self, op_id: str) -> tuple[Dep, ...]:
        return tuple(d for d in self.deps if d.src == op_id)

    @property
    def costed(self) -> bool:
        return all(o.cycles is not None for o in self.ops) and all(d.delay is not None for d in self.deps)

    # -- changed copies -------------------------------------------------------------------
    def with_ops(self, ops: Iterable[Op]) -> "LoopGraph":
        return dataclasses.replace(self, ops=tuple(ops))

    def with_deps(self, deps: Iterable[Dep]) -> "LoopGraph":
        return dataclasses.replace(self, deps=tuple(deps))

    def with_meta(self, **kv: Any) -> "LoopGraph":
        m = dict(self.meta)
        m.update(kv)
        return dataclasses.replace(self, meta=tuple(sorted(m.items())))

    def to_networkx(self):
        """A ``networkx.MultiDiGraph`` view (networkx is the algorithm library, not the model)."""
        import networkx as nx

        g = nx.MultiDiGraph()
        for o in self.ops:
            g.add_node(o.id, op=o)
        for d in self.deps:
            g.add_edge(d.src, d.dst, dep=d, delay=d.delay, distance=d.distance)
        return g
