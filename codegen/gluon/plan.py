"""A joint schedule read as a warp-specialized kernel: partitions, what each runs and when, rings, barriers,
registers and shared memory.

Every structural decision of the generated kernel is taken here from the schedule (nothing from a
per-kernel template):
- partitions: one consumer per compute warp group of the schedule (the first is Gluon's default
  partition), one producer for the variable-latency group (its TMA loads);
- what a consumer runs: its nodes' ops (per row sub-tile when the graph was split), and everything
  they need before, in and after the loop, sliced back from them;
- when: an op of stage s in the body of steady iteration b works on iteration b - s; the order inside
  a body is the schedule's slot order (start mod II);
- a dot operand loaded through pointers (``tl.load`` into shared memory, ``pointer_tiles``) streamed as
  a descriptor tile is: the producer, then a warp group, copies it with cp.async (``kernel._copy_lines``), or with
  one TMA copy where its addresses and mask are a box and the launch allows it (``Ring.box``, ``boxes``);
- each streamed tile a ring of ``depth`` buffers (the stages the loads run ahead, plus one), a ready
  barrier per buffer (expect-tx, the producer's copy) and an empty one (one arrive per consumer that
  reads it);
- pointer loads, whose data must end in a consumer's registers, are issued by the consumer that reads
  them, one iteration ahead of their first reader (a register value cannot cross partitions without a
  shared-memory round trip); a tile that goes on to a synchronous dot (mma.sync, FMA) is copied with
  cp.async into a ring of the consumer's own and read from there where its reader is (``AsyncTile``);
- a partial sum over split rows that every sub-tile adds atomically to the same addresses (the FA
  backward's dQ: each consumer's keys contribute to every query row) goes through a reducer partition
  (``Reduction``): each consumer stores its partial into a shared buffer of its own, a one-warp reducer
  adds the sub-tiles' partials and issues one atomic add per element for the CTA;
- registers: the producer keeps the minimum, the consumers share the rest (``setmaxnreg``); the budget
  Triton does not check is checked here, against the schedule's register model;
- a dot's A operand computed in registers stays there (wgmma reads it from registers) unless the plan is
  asked to stage such operands (``stage=True``, the route's answer to ptxas running out of registers): the
  16-bit tile is then stored once per iteration into a shared buffer of its own and read from there, by
  every dot that reads it, transposed where the dot reads its transpose (a register transpose costs a
  shared-memory round trip anyway), which frees its registers for the wgmma pipeline.
"""
from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass, field

from codegen.gluon.boxes import Box, NotABox, analyse
from codegen.gluon.layouts import (Blocked, DotOperand, Mma, NvmmaShared, SwizzledShared, aliases, parse_type,
                                   per_thread)
from codegen.gluon.ops import source_where
from codegen.gluon.values import py_name
from twill.errors import UnsupportedError
from twill.graph.model import MEMORY, LoopGraph
from twill.graph.split import SUFFIX
from twill.ir import vocab
from twill.ir.dims import RowSplit
from twill.ir.function import Function
from twill.ir.ttgir import IROp, TypeInfo, closure, layout_conversions, loop_bounds, type_info
from twill.machine.model import Machine
from twill.schedule.model import Schedule

REG_FILE = 65536            # 32-bit registers per SM
MIN_REGS, MAX_REGS = 24, 256
PRODUCER_REGS = 24          # a TMA-only producer: addresses and barrier phases
COPY_WARPS = 4              # a producer copying pointer tiles (cp.async): one warp group, whose setmaxnreg it sets
WIDE_COPY_WARPS = 8         # or two, where ptxas fits it beside the consumers (``twill.gluon_route``: tried first)
REG_OVERHEAD = 40           # registers per thread beyond the tiles: indices, addresses, phases, loop counters
BARRIER_BYTES = 8
REDUCER_REGS = 32           # the reducer's row of both partials, its addresses and the iteration's base
SPLIT_REDUCER_REGS = 24     # its row of one partial (``ColumnSplit``): the consumers take the 8 more (run 109: the FA
                            # backward's 240 each, 11 fewer spill instructions a trip in one, +1.7 % launched)
SMALL_GROUP_SLACK = 8       # Triton gives the default partition 512 - 8 - the workers' groups (measured, 3.6)
RED_PAD = 4                 # words after each row of a reducer buffer: the accumulator's 8-byte stores
                            # (8 rows x 4 column pairs per warp) and the reducer's row loads at the fewest
                            # wavefronts; a swizzled buffer cannot be sliced by rows in Gluon 3.6


@dataclass(frozen=True)
class Item:
    """One op instance in a partition's loop body: the op (index in the body), its sub-tile, the
    schedule stage and the ordering key (slot, then program order)."""

    op: int
    subtile: int | None
    stage: int
    key: tuple[int, int]


@dataclass(frozen=True)
class Staged:
    """A register tile a consumer stores into a shared buffer of its own each iteration, for the dots that
    read it as their A operand (``Staging``)."""

    name: str                      # the buffer
    value: str                     # the SSA value stored
    subtile: int | None
    part: int
    dtype: str                     # TTGIR element type
    shape: tuple[int, ...]         # the sub-tile's shape
    layout: str | None = None      # the buffer's shared layout as TTGIR has it (a ``ttg.local_alloc`` of the loop)
    depth: int = 1                 # buffers, one per iteration in flight (a ``ttg.local_alloc`` of the loop: 2+)

    @property
    def bytes(self) -> int:
        return self.depth * TypeInfo("smem", self.shape, self.dtype).bytes


@dataclass(frozen=True)
class Reduction:
    """A partial sum over the split rows that each sub-tile adds atomically to the same addresses, handed
    to a reducer partition: the consumers store their partials (``value``, before the conversion ``convert``
    made only for the atomic add) into ``buffer(sub)`` behind ``twill_red_free``, arrive ``twill_red_ready``;
    the reducer adds them row by row and issues the atomic add at ``base`` + row * ``stride`` + column."""

    op: int                        # the atomic add in the loop body
    value: str                     # the partial each sub-tile stores
    convert: int | None            # the layout conversion made only for the atomic add (skipped)
    skip: frozenset[int]           # body ops only the atomic add's addresses need (the consumers skip them)
    base: str                      # the iteration's scalar base pointer
    stride: str                    # the row stride: a literal, or a scalar value's name
    rows: int
    cols: int
    dtype: str
    sem: str
    scope: str
    shared_lag: int | None = None  # the producer adds the lower half of the rows, this many iterations behind its
                                   # loads (``producer_share``); None: the reducer adds every row
    split: "ColumnSplit | None" = None   # each sub-tile computes the whole sum for a column slice (``column_split``)

    def buffer(self, sub: int | None) -> str:
        return "twill_red" if self.split is not None else f"twill_red_t{sub}"

    @property
    def bytes(self) -> int:
        return self.rows * (self.cols + RED_PAD) * TypeInfo("smem", (1,), self.dtype).bytes


@dataclass(frozen=True)
class ColumnSplit:
    """FlashAttention-3's split of dQ: the partial a reducer adds (``Reduction``) is a dot over the split rows, each
    sub-tile contracting its own rows. Instead each sub-tile ``s`` computes columns ``[s * width, (s + 1) * width)`` of
    the whole sum: its own staged A operand times its own B's column slice, then every other sub-tile's staged A
    operand (behind ``twill_xs_ready``) times that sub-tile's B slice, chained on one accumulator; each hands on a slice
    final for the CTA, so the reducer adds one buffer and sums nothing. The staged buffer's writer waits on
    ``twill_xs_free`` (the other sub-tiles' reads of the iteration before) before storing the next, and after the loop
    before its B tile's buffer is reused. On the H200 the FA backward ran 8.8 % faster so (run 107: x1.23 Triton's
    best at N = 16k, x1.13 with each consumer's own partial)."""

    dot: int                  # the dot whose result, through ``chain``, is the partial
    a: str                    # its staged A operand (``staged_name(a, sub)`` per sub-tile)
    width: int                # the columns each sub-tile computes
    chain: tuple[int, ...]    # elementwise ops from the dot's result to the partial (a scale)


@dataclass
class Staging:
    """Which dots read their A operand from a staged buffer: dot op -> (value stored, permutation of the
    read or None), the conversions that then go unused, and the buffers."""

    reads: dict[int, tuple[str, tuple[int, ...] | None]] = field(default_factory=dict)
    skip: set[int] = field(default_factory=set)
    buffers: list[Staged] = field(default_factory=list)
    allocs: set[int] = field(default_factory=set)   # the loop's own ``ttg.local_alloc`` of a register tile
    stores: set[int] = field(default_factory=set)   # the loop's TMA stores (``tt.descriptor_store``), staged each


def tile_suffix(part: int, subtile: int | None) -> str:
    """What names a consumer's own per-tile buffer (``kernel.Source.tma_load``): its partition and sub-tile."""
    return f"_c{part}" + ("" if subtile is None else f"_t{subtile}")


def staged_name(value: str, subtile: int | None) -> str:
    return f"{py_name(value)}_st" + ("" if subtile is None else f"_t{subtile}")


def alloc_name(plan: "KernelPlan", value: str, subtile: int | None, part: int) -> str:
    """The buffers of a ``ttg.local_alloc`` of the loop (``_allocs``) in consumer ``part``: its own where the tile is
    not split by rows and several consumers store it (vLLM's ALiBi prefill: both consumers stored the whole K tile
    into one pair of buffers, unsynchronised, so one ran two iterations ahead and overwrote the tile the other's
    wgmma still read: wrong at N = 4096, right at 300, run 199)."""
    shared = subtile is None and len(plan.consumers) > 1
    return staged_name(value, subtile) + (f"_c{part}" if shared else "")


@dataclass(frozen=True)
class Ring:
    """A streamed tile: loaded by the producer into ``depth`` buffers, read by ``readers``."""

    name: str                      # python name stem, e.g. "k"
    load: int                      # index of the descriptor_load in the loop body
    alloc: int | None              # index of the local_alloc of it (None: the tile is read into registers)
    descriptor: str                # SSA name of the descriptor argument
    shape: tuple[int, ...]
    dtype: str
    depth: int
    readers: tuple[int, ...]       # consumer partitions
    key: tuple[int, int]           # producer order
    subtile: int | None = None     # a tile along the split rows: one ring per sub-tile
    layout: str | None = None      # a pointer tile's shared layout (TTGIR attribute); None: the descriptor's
    registers: bool = False        # a pointer tile cp.async cannot copy: loaded and stored through registers
    box: Box | None = None         # a pointer tile a TMA copy can load where the launch allows (``boxes``)
    sliced: tuple[int, int] | None = None   # (dim, rows): a whole pointer tile whose readers each read their sub-tile's
    block_rank: int = 0            # its descriptor's rank where above the tile's (gpt-oss: [1, 1, 64, 64] boxes of 64 x 64)

    @property
    def bytes(self) -> int:
        return TypeInfo("smem", self.shape, self.dtype).bytes

    @property
    def view(self) -> str:
        """How its readers (and its cp.async copies) see a buffer: permuted where it holds a transposed box (a K^T or
        B^T tile, which TMA writes in memory's order, ``boxes.Box.transposed``); reshaped where the descriptor's block
        has more dimensions than the tile (its unit ones dropped, as Triton's TTGIR has the load's result)."""
        if self.block_rank > len(self.shape):      # a rank-4 box read as the 2-D tile the kernel reshapes it to
            return f".reshape({list(self.shape)})"
        return ".permute((1, 0))" if self.box is not None and self.box.transposed else ""

    def part(self, subtile: int | None) -> str:
        """The view of a buffer sub-tile ``subtile``'s reader reads (its rows of a ``sliced`` tile)."""
        if self.sliced is None or subtile is None:
            return ""
        dim, rows = self.sliced
        return f".slice({subtile * rows}, {rows}, {dim})"

    @property
    def copied(self) -> bool:
        """Loaded through pointers (``cp.async``, each producer thread its elements), not by one TMA copy."""
        return self.layout is not None


@dataclass(frozen=True)
class AsyncTile:
    """A pointer tile a consumer reads in registers on its way to a synchronous dot (an mma.sync or FMA dot's operand,
    directly or dequantised): the consumer copies it with cp.async into ``depth`` buffers of its own at the load's stage
    and slot (``issue``), one commit group per body, and reads it where its first reader is (``read``) after
    ``async_copy.wait_group(wait)`` and a barrier, in the layout that reader wants (an mma.sync operand: ldmatrix from
    a swizzled buffer). Triton pipelines such loads so; loaded a stage ahead into registers instead and converted
    through shared memory each iteration, GQA decode ran x0.65 Triton's best (run 29c)."""

    name: str                      # the buffers
    load: int                      # the ``tt.load`` in the loop body
    part: int                      # the consumer partition
    shape: tuple[int, ...]
    dtype: str
    via: str                       # the value whose layout the tile is read in (a conversion's, or the load's own)
    shared: str                    # the buffers' shared layout, spelled
    depth: int
    issue: Item
    read: Item
    alloc: int | None = None       # a wgmma's shared operand: the ``local_alloc`` the slot stands for (``_direct_tile``)

    @property
    def wait(self) -> int:
        """Commit groups that may still be in flight when the read waits: one per body since the issue's."""
        return self.read.stage - self.issue.stage - 1

    @property
    def bytes(self) -> int:
        return self.depth * TypeInfo("smem", self.shape, self.dtype).bytes


@dataclass(frozen=True)
class Partition:
    index: int                     # 0: the default partition
    role: str                      # "consumer" | "producer" | "reducer"
    group: int                     # the schedule's warp group
    warps: int
    subtiles: tuple[int | None, ...]
    items: tuple[Item, ...] = ()
    regs: int = 0
    need_regs: int = 0

    @property
    def stages(self) -> int:
        return 1 + max((i.stage for i in self.items), default=0)


@dataclass
class KernelPlan:
    fn: Function
    loop: IROp
    graph: LoopGraph
    schedule: Schedule
    machine: Machine
    rows: RowSplit | None
    subtiles: int
    partitions: list[Partition]
    rings: list[Ring]
    maxnreg: int | None = 0          # None: ptxas's own (one partition, no setmaxnreg)
    tc_runs: list[tuple[int, tuple[tuple[int, int | None], ...]]] = field(default_factory=list)  # (partition, dots)
    decisions: list[str] = field(default_factory=list)
    smem_bytes: int = 0
    node_of: dict[int, str] = field(default_factory=dict)     # loop-body op -> graph node (base id)
    staging: Staging = field(default_factory=Staging)         # dot operands read from shared memory
    after_store: set[int] = field(default_factory=set)        # pointer loads of what a store of their iteration wrote
    recurrent: set[int] = field(default_factory=set)          # pointer loads whose address their own value decides (``self_recurrent``)
    reduction: Reduction | None = None                        # split partials summed by a reducer partition
    own_stores: bool = True       # a store after the loop has a buffer of its own (else a loaded tile's of its type)
    reducer_dropped: bool = False  # a reducer would have left the consumers too few registers
    least_trips: int = 1            # the fewest iterations the kernel's loops may run (``kernel.least_trips``)
    launch_checks: list = field(default_factory=list)   # (trip count expression, fewest): ``host._least_check``
    siblings: list["KernelPlan"] = field(default_factory=list)   # the kernel's other loops beside this one (``sibling``)
    copy_warps: int = COPY_WARPS    # the producer's warps where it copies pointer tiles (cp.async)
    chains: bool = False            # an accumulation's previous dot retired under its successor's token
    asyncs: list[AsyncTile] = field(default_factory=list)   # register-read pointer tiles copied by their consumer
    two_ctas: bool = False          # the launch's registers halved for two CTAs per SM (``_two_ctas``)
    two_ctas_allowed: bool = True   # ``plan_kernel``'s argument: off where ptxas spilled under the halved limit
    stage: bool = False             # ``plan_kernel``'s argument: register A operands staged through shared memory
    copy_wgmma: bool = False        # ``plan_kernel``'s argument: pointer tiles a wgmma reads copied with cp.async too
    own_tiles: bool = False         # ``plan_kernel``'s argument: the consumers load their dot operands' pointer tiles
    prefetch: int = 0               # ``plan_kernel``'s argument: with ``own_tiles``, iterations a wgmma's pointer tile is
                                    # copied ahead with cp.async (``_direct_tile``; 0: loaded a stage ahead in registers)
    wgmma_copyable: bool = False    # some consumer pointer tile a wgmma reads would be so copied (``_async_tiles``)
    ii_depths: dict[str, int] = field(default_factory=dict)   # ring -> its depth sized for the II, where ``_rings``
                                    # sized it for a shorter iteration (``boxed_iteration``), for ``_two_ctas``

    @property
    def body(self) -> list[IROp]:
        assert self.loop.body is not None
        return self.loop.body.ops

    @property
    def column_split(self) -> "ColumnSplit | None":
        """The reduction's split by columns among the sub-tiles, where it has one (``column_split``)."""
        return self.reduction.split if self.reduction is not None else None

    @property
    def staging_possible(self) -> bool:
        """Whether some consumer's dot reads a register tile that could be staged (``stageable``)."""
        found = stageable(self.fn, self.body)
        return any(x.op in found for p in self.consumers for x in p.items)

    @property
    def sequence(self) -> list["KernelPlan"]:
        """This loop's plan and its siblings', in program order."""
        return sorted([self] + self.siblings, key=lambda q: self.fn.ops.index(q.loop))

    @property
    def copies(self) -> bool:
        """Whether the kernel copies pointer tiles with cp.async: the producer into its rings, or a consumer into
        its own (``asyncs``, in any of the kernel's loops)."""
        return any(r.copied for r in self.rings) or any(q.asyncs for q in self.sequence)

    @property
    def boxed(self) -> list[Ring]:
        """The rings of the kernel's loops a TMA copy can fill where the launch allows (``Ring.box``)."""
        return [r for q in self.sequence for r in q.rings if r.box is not None]

    @property
    def consumers(self) -> list[Partition]:
        return [p for p in self.partitions if p.role == "consumer"]

    @property
    def producer(self) -> Partition | None:
        return next((p for p in self.partitions if p.role == "producer"), None)

    @property
    def reducer(self) -> Partition | None:
        return next((p for p in self.partitions if p.role == "reducer"), None)


def node_of_op(g: LoopGraph, body: list[IROp]) -> dict[int, str]:
    """Loop-body op index -> the base node id that folds it (copies of a split node share its lines)."""
    by_text = {op.text: i for i, op in enumerate(body)}
    out: dict[int, str] = {}
    for o in g.ops:
        base = o.attr("split_of") or o.id
        for line in o.ir:
            if line in by_text:
                out[by_text[line]] = base
    return out


def instance(base: str, subtile: int | None) -> str:
    return base if subtile is None else f"{base}{SUFFIX}{subtile}"


def _partitions(g: LoopGraph, s: Schedule, kernel_warps: int) -> tuple[list[Partition], dict[int, int]]:
    """Consumers (compute groups, in group order) then the producer; and group -> partition index."""
    warp = s.warp_map
    info = s.get("warp_groups") or {}
    vl = info.get("variable_latency")
    if info.get("issue") is not None and any(warp.get(o.id) == info["issue"] for o in g.ops):
        raise UnsupportedError("the Gluon back end writes Hopper kernels: a one-warp MMA issue group is Blackwell's",
                               where=g.name, expected="compute groups and a load group")
    compute = sorted({w for v, w in warp.items() if w != vl})
    wpg = int(info.get("warps_per_group") or kernel_warps)
    parts: list[Partition] = []
    group_of: dict[int, int] = {}
    for w in compute:
        subs = sorted({g.op(v).attr("subtile") for v, gw in warp.items() if gw == w and not g.op(v).variable_latency},
                      key=lambda x: -1 if x is None else x)
        group_of[w] = len(parts)
        parts.append(Partition(len(parts), "consumer", w, wpg, tuple(subs)))
    if vl is not None and any(gw == vl for gw in warp.values()):
        group_of[vl] = len(parts)
        parts.append(Partition(len(parts), "producer", vl, 1, ()))
    return parts, group_of


class SharedMemoryExceeded(UnsupportedError):
    """The plan's buffers need more shared memory than a CTA has."""


def plan_kernel(fn: Function, loop: IROp, g: LoopGraph, s: Schedule, machine: Machine,
                rows: RowSplit | None, stage: bool = False, reduce: bool = True, own_stores: bool = True,
                copy_warps: int = COPY_WARPS, two_ctas: bool = True, copy_wgmma: bool = False,
                own_tiles: bool = False, prefetch: int = 0, split_columns: bool = True) -> KernelPlan:
    """The kernel plan of joint schedule ``s`` of loop ``loop`` (graph ``g``, split or not); ``two_ctas``: two CTAs
    per SM where the estimates allow (``_two_ctas``; off where ptxas spilled under the halved limit);
    ``copy_wgmma``: a consumer's pointer tiles that reach a wgmma copied with cp.async as well (``_async_tiles``);
    ``own_tiles``: no producer copies the dot operands' pointer tiles (``copied_tiles``): each consumer loads its own,
    as Triton's one partition, a tile only wgmmas read ``prefetch`` ahead (``_direct_tile``); ``split_columns``: ``column_split``.

    Examples
    --------
    >>> plan = plan_kernel(fn, loop, split_graph_, joint, load_machine("h100"), rows)   # doctest: +SKIP
    >>> [(p.role, p.warps, p.subtiles) for p in plan.partitions]                         # doctest: +SKIP
    [('consumer', 4, (0,)), ('consumer', 4, (1,)), ('producer', 1, ())]
    """
    if s.status not in ("optimal", "feasible") or not s.warp:
        raise UnsupportedError("the Gluon back end writes a joint schedule", where=g.name,
                               expected="a schedule with a warp assignment", found=s.status)
    nc = int(g.get("row_split") or 1)
    body = loop.body.ops if loop.body is not None else []
    kernel_warps = int(g.get("num_warps") or 4)
    parts, group_of = _partitions(g, s, kernel_warps)
    if not any(p.role == "consumer" for p in parts):
        raise UnsupportedError("no compute warp group in the schedule", where=g.name)
    plan = KernelPlan(fn, loop, g, s, machine, rows if nc > 1 else None, nc, parts, [], own_stores=own_stores,
                      copy_warps=copy_warps, own_tiles=own_tiles, prefetch=prefetch if own_tiles else 0)
    node_of = node_of_op(g, body)
    plan.node_of = node_of
    items = _consumer_items(plan, node_of, group_of)
    plan.partitions = [Partition(p.index, p.role, p.group, p.warps, p.subtiles, tuple(items.get(p.index, ()))) for p in parts]
    plan.rings = _rings(plan, node_of, group_of)
    if any(r.copied for r in plan.rings):     # pointer tiles: the producer copies them on a warp group's threads
        plan.partitions = [dataclasses.replace(p, warps=copy_warps) if p.role == "producer" else p
                           for p in plan.partitions]
        plan.decisions.append(f"pointer-loaded tiles copied by a {copy_warps}-warp producer with cp.async "
                              f"({', '.join(r.name for r in plan.rings if r.copied)}): their addresses and masks "
                              f"spread over {32 * copy_warps} threads"
                              + (f", {max(r.depth for r in plan.rings if r.copied)}-deep rings: one deeper than "
                                 "their latency asks, as the "
                                 "copies' rate rises with the threads issuing them and the bytes in flight together "
                                 "(run 26c-d: guarded_gemm 4 warps 3 deep 384, 8 warps 3 deep 395, 4 warps 4 deep "
                                 "415, 8 warps 4 deep 451, 8 warps 5 deep 395 TFLOP/s)" if copy_warps > COPY_WARPS
                                 else "")
                              + "".join(f"; {r.name} through the producer's registers (its shared buffer is "
                                        f"contiguous along another dimension than memory, with {r.dtype} elements: "
                                        "cp.async would copy one byte at a time)" for r in plan.rings if r.registers))
    plan.reduction = reduction(fn, body, plan) if reduce else None
    if plan.reduction is not None:
        group = plan.producer.group if plan.producer is not None else -1   # it shares the producer's warp group
        plan.partitions.append(Partition(len(plan.partitions), "reducer", group, 1, ()))
        plan.reduction = dataclasses.replace(plan.reduction, shared_lag=producer_share(plan))
    _drop_idle_producer(plan)
    plan.stage = stage
    plan.staging = _staging(plan) if stage else plan.staging
    if plan.reduction is not None and split_columns:
        plan.reduction = dataclasses.replace(plan.reduction, split=column_split(plan, plan.reduction))
    _allocs(plan)
    plan.copy_wgmma = copy_wgmma
    _async_tiles(plan)
    try:
        _registers(plan)
    except UnsupportedError:
        if plan.reduction is None:
            raise
        # the reducer's warp group takes registers the consumers' tiles need: each adds its own partial
        plan.reduction = None
        plan.partitions = [p for p in plan.partitions if p.role != "reducer"]
        plan.reducer_dropped = True
        _registers(plan)
    _tc_order(plan)
    plan.smem_bytes = _fit_smem(plan)
    plan.two_ctas_allowed = two_ctas
    if two_ctas:
        _two_ctas(plan)
    if plan.smem_bytes > machine.smem_per_cta:
        raise SharedMemoryExceeded("the schedule's buffers do not fit shared memory", where=g.name,
                               expected=f"<= {machine.smem_per_cta} bytes per CTA",
                               found=f"{plan.smem_bytes} bytes ({_largest_buffers(plan)})")
    return plan


def _drop_idle_producer(plan: KernelPlan) -> None:
    """No producer partition where it would stream nothing: no ring (the loop's loads are pointer loads of
    register tiles, which their consumer issues itself), no reduction, no tile loaded before the loop. A kernel
    of one consumer then runs without ``gl.warp_specialize``: no idle warp group, no register split, ptxas's
    own allocation (a memory-bound row kernel keeps several CTAs per SM)."""
    prod = plan.producer
    if prod is None or plan.rings or plan.reduction is not None:
        return
    if any(o.name in vocab.TMA_LOADS for o in plan.fn.ops):
        return
    plan.partitions = [p for p in plan.partitions if p is not prod]
    if len(plan.partitions) == 1:      # the kernel's own warps, in the layouts Triton gave them (not a warp group's)
        plan.partitions = [dataclasses.replace(plan.partitions[0], warps=int(plan.graph.get("num_warps") or 4))]


def _consumer_items(plan: KernelPlan, node_of: dict[int, str], group_of: dict[int, int]) -> dict[int, list[Item]]:
    """Each consumer's loop-body op instances with stage and order key, normalised so each consumer's
    earliest stage is 0: its nodes' ops, the pointer loads it reads, and the bookkeeping they need
    (address arithmetic, loop-carried scalars) at the stage of their first user. Tile loads are the
    producer's; their rings are read where their readers are."""
    g, s, body = plan.graph, plan.schedule, plan.body
    start, warp = s.start_map, s.warp_map
    out: dict[int, list[Item]] = {}
    copied = copied_tiles(plan)
    for i, op in enumerate(body):
        base = node_of.get(i)
        if (base is None or op.name in vocab.TMA_LOADS or i in copied or _is_tile_alloc(body, i, copied)
                or op.name == vocab.YIELD):
            continue
        subs = range(plan.subtiles) if instance(base, 0) in start else [None]
        for sub in subs:
            node = instance(base, sub)
            if g.op(node).kind in ("load", "tma_load"):
                continue                      # pointer loads and their addresses, views of loaded tiles: with their readers below
            p = group_of[warp[node]]
            out.setdefault(p, []).append(Item(i, sub, start[node] // s.ii, (start[node] % s.ii, i)))
    yld = next((o.operands for o in body if o.name == vocab.YIELD), ())
    carried = dict(zip(plan.loop.body.args[1:], yld)) if plan.loop.body is not None else {}
    # loads of what a store wrote: in this iteration (distance 0), or in an earlier one (a read-modify-write through
    # memory at an address not proved apart: moe_align_block_size's token counts, loaded, incremented and stored
    # back each iteration; prefetched a stage ahead, a load read the count before the last iteration's store, run 65)
    stored = {d.dst for d in g.deps if d.value.startswith(MEMORY) and (d.distance == 0 or g.op(d.src).kind == "store")}
    after_store = {i for i, base in node_of.items()
                   if any(instance(base, sub) in stored for sub in [None, *range(plan.subtiles)])}
    plan.after_store = {i for i in after_store if body[i].name == vocab.POINTER_LOAD
                        and not any(o.name in vocab.BARRIERS for o in body[:i])}   # a tl.debug_barrier orders them
    plan.recurrent = {i for i in node_of if body[i].name == vocab.POINTER_LOAD and i not in plan.after_store
                      and self_recurrent(body, i, carried)}
    for p, items in out.items():
        for i in sorted(plan.after_store | plan.recurrent):   # where the schedule has the load: after the store it reads, before the
            for r in {x.subtile for x in _readers(body, items, body[i].results[0])}:   # next iteration's store
                node = instance(node_of[i], r)
                items.append(Item(i, r, start[node] // s.ii, (start[node] % s.ii, i)))
        ahead = int(s.get("loads_ahead", 1))
        deep = dict.fromkeys(_direct_loads(plan), plan.prefetch) if ahead else {}
        items[:] = [x for x in items if x.op not in deep]      # placed again below, further ahead than scheduled
        _add_pointer_loads(body, items, carried, ahead, deep)
        _add_bookkeeping(plan, items)
        low = min(x.stage for x in items)
        out[p] = sorted((Item(x.op, x.subtile, x.stage - low, x.key) for x in items),
                        key=lambda x: (x.key, -1 if x.subtile is None else x.subtile))
        _check_order(plan, out[p])
    return out


def self_recurrent(body: list[IROp], i: int, carried: dict[str, str]) -> bool:
    """Whether pointer load ``i``'s address reads a value the loop carries whose next value is computed from the
    load's own result (a binary search's pivot, ``code_ptr + (lower + upper) // 2`` with ``lower`` / ``upper`` chosen
    by comparing the loaded value; a pointer chase): issued a stage ahead of its readers, the load would read the
    carried value of two iterations back (bitsandbytes' blockwise quantization found about 4 of its 8 halvings,
    session 73), so it stays where the schedule has it, which the dependence of distance 1 orders."""
    reads = {v for j in closure(body, set(body[i].operands)) | {i} for v in body[j].operands if v in carried}
    if not reads:
        return False
    after, values = {i}, set(body[i].results)   # the ops of the iteration that read the load's value, directly or not
    for j in range(i + 1, len(body)):
        if values.intersection(body[j].operands):
            after.add(j)
            values.update(body[j].results)
    return any(closure(body, {carried[v]}) & after for v in reads)


def _check_order(plan: KernelPlan, items: list[Item]) -> None:
    """Every item after the items whose values it reads in the same iteration (a later stage, or the same stage
    and a later key): an item written before its operand's would read the previous iteration's value, or an
    undefined one. A dependence the graph left out ends here in one line, never in a kernel that computes wrong."""
    body = plan.body
    at = {(x.op, x.subtile): x for x in items}
    defined = {r: i for i, op in enumerate(body) for r in op.results}
    for x in items:
        for v in body[x.op].operands:
            j = defined.get(v)
            y = at.get((j, x.subtile), at.get((j, None))) if j is not None else None
            if y is not None and (y.stage, y.key) > (x.stage, x.key):
                raise UnsupportedError("the schedule reads a value before the op computing it in the same iteration "
                                       "(a dependence the graph does not hold)", where=plan.graph.name,
                                       found=f"{_node_name(plan, x)} (stage {x.stage}) reads {v} of "
                                       f"{_node_name(plan, y)} (stage {y.stage}, later)")


def _is_tile_alloc(body: list[IROp], i: int, copied: dict[int, int]) -> bool:
    """A ``local_alloc`` of a tile the loop loads (by TMA, or a pointer tile of ``copied``): the ring buffer
    stands for it."""
    op = body[i]
    if op.name != vocab.LOCAL_ALLOC or not op.operands:
        return False
    j = next((k for k, o in enumerate(body) if op.operands[0] in o.results), None)
    return j is not None and (body[j].name in vocab.TMA_LOADS or j in copied)


def copied_tiles(plan: KernelPlan) -> dict[int, int]:
    """The pointer tiles the producer copies (``pointer_tiles``); none where the consumers load their own
    (``KernelPlan.own_tiles``)."""
    return {} if plan.own_tiles else pointer_tiles(plan.body)


def pointer_tiles(body: list[IROp]) -> dict[int, int]:
    """The loop's pointer loads whose tile only goes to shared memory (``tl.load`` of a dot operand, which
    TTGIR puts there with a ``local_alloc``): load index -> alloc index. The producer copies them into rings
    with ``cp.async`` as it does descriptor tiles with TMA; the consumers never hold them in registers."""
    out: dict[int, int] = {}
    for i, op in enumerate(body):
        if op.name != vocab.POINTER_LOAD or not op.results:
            continue
        readers = [j for j, o in enumerate(body) if op.results[0] in o.operands]
        if len(readers) == 1 and body[readers[0]].name == vocab.LOCAL_ALLOC:
            out[i] = readers[0]
    return out


def _readers(body: list[IROp], items: list[Item], value: str) -> list[Item]:
    return [x for x in items if value in body[x.op].operands]


def _add_pointer_loads(body: list[IROp], items: list[Item], carried: dict[str, str], ahead: int = 1,
                       deep: dict[int, int] | None = None) -> None:
    """A pointer load runs in the consumer that reads it, one stage ahead of its first reader there
    (prefetched like a streamed tile: its latency overlaps the previous iteration); one that reads what a store of
    its iteration writes is an item already, where the schedule has it (``KernelPlan.after_store``: flash_attn_triton's
    rescale factor stored to ``TMP`` and loaded back; prefetched, it read the buffer before the store and the
    kernel's output was NaN, run 42). The items its address or
    mask is computed from (a mask two loads share is a node of its own) move with it where they can
    (``_hoist``); where they cannot, the load waits for them in their stage. A load whose value only addresses
    another (a gather's indices) is no reader's: it runs with the load it addresses (``_add_bookkeeping``), not a
    stage before it (run 28c: decode attention's index load a stage earlier held 222 registers to 162 and ran
    0.874 ms to 0.697, two CTAs per SM to three). ``ahead``: the stages a load runs before its reader (the
    schedule's ``loads_ahead``; 0 where the loop's tiles in one stage fill the register file, ``whole_cta``); ``deep``:
    loads that run more stages ahead (a wgmma's tile its consumer copies straight into shared memory, ``_direct_tile``)."""
    placed = {x.op for x in items}
    for i, op in enumerate(body):
        if op.name != vocab.POINTER_LOAD or not op.results or i in placed:
            continue
        readers = _readers(body, items, op.results[0])
        if not readers and i in (deep or {}):       # a wgmma's tile: its alloc and views are no items yet
            allocs = [o for o in body if op.results[0] in o.operands]
            views = _memdesc_views(body, allocs[0].results[0]) if len(allocs) == 1 else set()
            readers = [x for x in items if views & set(body[x.op].operands)]
        for sub in sorted({x.subtile for x in readers}, key=lambda v: -1 if v is None else v):
            first = min((x for x in readers if x.subtile == sub), key=lambda x: (x.stage, x.key))
            key = (first.key[0], first.key[1] - len(body))
            stage = first.stage - (deep or {}).get(i, ahead)
            if not _hoist(body, items, i, sub, stage, key, carried):
                stage = max([stage] + [items[k].stage for k in _producers(body, items, i, sub)])
            # after its producers in their stage, its address arithmetic too (``_add_bookkeeping`` places it just
            # before the load): sglang's int4 KV decode had its scales' load keyed by its reader, before the layout
            # conversion of the index its address reads, in the same stage ("a dependence the graph does not hold")
            last = max((items[k].key for k in _producers(body, items, i, sub) if items[k].stage == stage), default=None)
            if last is not None and last > key:      # (each op of its address a body's length before its reader)
                key = (last[0], last[1] + len(body) ** 2)
            items.append(Item(i, sub, stage, key))
    _co_stage_shared_addresses(body, items, {x.op for x in items} - placed, carried)


def _co_stage_shared_addresses(body: list[IROp], items: list[Item], loads: set[int], carried: dict[str, str]) -> None:
    """Pointer loads (``loads``, placed by ``_add_pointer_loads``) whose addresses share a register tile run in the
    earliest of their stages where the shared tile is larger than the later load's: an address is computed once, where
    its first load is (``_add_bookkeeping``), and carried in registers a stage for a load after it (vLLM's GPTQ/AWQ
    MoE: the [64, 64] i32 offsets its zero-point and scale loads share, 16 KB a CTA, against the scales' 8 KB; ptxas
    spilled 460 instructions in its loop, 400 so). Left where what it reads cannot move with it (``_hoist``)."""
    at = {(x.op, x.subtile): k for k, x in enumerate(items)}
    items_ops = {x.op for x in items}
    cones = {i: {j for j in closure(body, set(body[i].operands), stop=items_ops) if j not in items_ops} for i in loads}
    for i in sorted(loads):
        for j in sorted(loads):
            shared = [t for k in cones[i] & cones[j] for t in body[k].result_types if t.startswith("tensor<")]
            if j == i or not shared or max(type_info(t).bytes for t in shared) <= _tile_bytes(body[j]):
                continue
            for sub in {x.subtile for x in items if x.op == i}:
                a, b = at.get((i, sub)), at.get((j, sub))
                if a is None or b is None or items[b].stage <= items[a].stage:
                    continue
                late = items[b]
                if _hoist(body, items, j, sub, items[a].stage, late.key, carried):
                    items[b] = Item(j, sub, items[a].stage, late.key)


def _tile_bytes(op: IROp) -> int:
    return type_info(op.result_types[0]).bytes if op.result_types and op.result_types[0].startswith("tensor<") else 0


def _producers(body: list[IROp], items: list[Item], i: int, sub: int | None) -> list[int]:
    """The indices in ``items`` of the items op ``i`` of ``sub`` reads, directly or through ops that are no item
    (address arithmetic)."""
    at = {(x.op, x.subtile): k for k, x in enumerate(items)}
    mine = {j: at.get((j, sub), at.get((j, None))) for j in range(len(body))}
    reached = closure(body, set(body[i].operands), stop={j for j, k in mine.items() if k is not None})
    return [mine[j] for j in sorted(reached) if mine[j] is not None]


def _carried_moves(body: list[IROp], items: list[Item], x: Item, stage: int, carried: dict[str, str]) -> set[int] | None:
    """The body ops that must move with item ``x`` into the earlier ``stage`` for the values the loop carries
    (``carried``: block argument -> the value the yield hands on): the items advancing what it reads (an offset a mask
    node advances, ``offs_k += BLOCK_K``: the recurrence moves whole; one that address arithmetic advances is
    computed where its readers are, ``_add_bookkeeping``). None where one of them is a load, dot or store, or another
    item reads those values before ``stage`` (AWQ's K mask: its tiles' loads had waited in their readers' stage)."""
    mine = {y.op for y in items}
    group, todo, reads = {x.op}, [x.op], set()
    while todo:
        j = todo.pop()
        new = {v for i in closure(body, set(body[j].operands)) | {j} for v in body[i].operands if v in carried} - reads
        reads |= new
        for r in closure(body, {carried[v] for v in new}) & mine - group:
            if body[r].name in vocab.LOADS | vocab.DOTS | vocab.STORES:
                return None
            group.add(r)
            todo.append(r)
    if any(y.stage < stage and reads & set(body[y.op].operands) for y in items if y.op not in group):
        return None
    return group - {x.op}


def _hoist(body: list[IROp], items: list[Item], i: int, sub: int | None, stage: int, key: tuple[int, int],
           carried: dict[str, str]) -> bool:
    """Move the items op ``i`` reads (``_producers``) that run after ``stage`` into it, before ``key``, with what
    they read in turn: only arithmetic (a mask, an offset), which may run a stage early, and what advances the
    values it reads that the loop carries (``_carried_moves``). False (nothing moved) where one of them is anything
    else."""
    moves: dict[int, Item] = {}
    todo = [i]
    while todo:
        for k in _producers(body, items, todo.pop(), sub):
            x = items[k]
            if x.stage <= stage or k in moves:
                continue
            op = body[x.op]
            along = _carried_moves(body, items, x, stage, carried)
            if op.name in vocab.LOADS | vocab.DOTS | vocab.STORES or along is None:
                return False
            for m, y in enumerate(items):
                if (m == k or (y.op in along and y.subtile in (sub, None))) and y.stage > stage and m not in moves:
                    moves[m] = Item(y.op, y.subtile, stage, min(y.key, (key[0], key[1] - 1)))
                    todo.append(y.op)
    for k, x in moves.items():
        items[k] = x
    return True


def _add_bookkeeping(plan: KernelPlan, items: list[Item]) -> None:
    """Body ops an item needs that no item is (address arithmetic, loop-carried scalars, views): added
    at the stage and just before the earliest item that needs them (an address two loads share: before the
    first load), through iter_args to the yield."""
    body = plan.body
    loop = plan.loop
    assert loop.body is not None
    defined = {r: i for i, op in enumerate(body) for r in op.results}
    yld = next((o for o in body if o.name == vocab.YIELD), None)
    carried = {a: yld.operands[k] for k, a in enumerate(loop.body.args[1:]) if yld and k < len(yld.operands)}
    have = {(x.op, x.subtile) for x in items}
    own = {(x.op, x.subtile): x for x in items}
    added: dict[tuple[int, int | None], Item] = {}     # at the stage and just before its earliest reader
    copied = copied_tiles(plan)
    frontier = list(items)
    bound = 4 * (len(body) + len(items)) ** 2     # each op moves earlier only for a reader earlier than the last
    while frontier:
        x = frontier.pop()
        bound -= 1
        if bound < 0:         # a cycle of moves (the defect block pointers' carried values once caused): one line
            raise UnsupportedError("the Gluon back end's planner does not settle the loop's address arithmetic",
                                   where=plan.graph.name, found=f"{_node_name(plan, x)} moved again and again")
        for v in body[x.op].operands:
            through = v in carried            # the value an iteration before computed: it need not run earlier
            v = carried.get(v, v)
            j = defined.get(v)
            if j is None or body[j].name in vocab.TMA_LOADS or j in copied or _is_tile_alloc(body, j, copied):
                continue
            sub = x.subtile if plan.rows is not None and plan.rows.touches(body[j]) else None
            new = Item(j, sub, x.stage, (x.key[0], x.key[1] - len(body) + j))
            old = added.get((j, sub))
            moved = False
            # a reader of its own node, where the schedule has it, reads it in body order already: moved before that
            # reader, the op would pass the node's ops it reads that cannot move (vLLM's bad-words loop: its
            # compare of the if's loaded value went before the if)
            beside = (x.key[1] == x.op and j in plan.node_of and plan.node_of[j] == plan.node_of.get(x.op))
            if old is None and (j, sub) in own and _pure(body[j]) and not through and not beside:
                old = own[(j, sub)]           # a node's scalar arithmetic another node reads first (a mask bound
                if (old.stage, old.key) > (new.stage, new.key):   # two loads share): moved before that reader
                    items.remove(old)
                    del own[(j, sub)]
                    have.discard((j, sub))
                    moved = True
            if (j, sub) in have and (through or old is None or (old.stage, old.key) <= (new.stage, new.key)):
                continue                      # an item of its own, or added before an earlier reader already
            # an op added for an earlier reader (moved out of its node, or read across) moves before this one too
            if (not moved and (j, sub) not in added and j in plan.node_of and plan.node_of[j] != plan.node_of.get(x.op)
                    and _kind(plan, instance(plan.node_of[j], sub)) not in ("", "load", "tma_load")):
                node = plan.node_of[j] + ("" if sub is None else f"_s{sub}")
                raise UnsupportedError("the schedule passes a value between compute partitions; the Gluon back end "
                                       "passes values between partitions only through the load rings",
                                       where=plan.graph.name, found=f"{node} read by {_node_name(plan, x)} in "
                                       f"another warp group", hint="solve with no cross-warp transfers")
            have.add((j, sub))
            added[(j, sub)] = new
            frontier.append(new)
    items.extend(added.values())


_PURE = frozenset({"tt.splat", "tt.broadcast", "tt.expand_dims", "tt.make_range", "tt.addptr"})


def _pure(op: IROp) -> bool:
    """Arithmetic on scalars: the same value wherever in its iteration it runs."""
    return (op.name.startswith(("arith.", "math.")) or op.name in _PURE) and not any(
        t.startswith("tensor<") for t in op.result_types)


def _kind(plan: KernelPlan, node: str) -> str:
    """The kind of graph node ``node`` ("" when the graph has no such node: an op shared by the
    sub-tile copies of a node, such as their address arithmetic)."""
    return next((o.kind for o in plan.graph.ops if o.id == node), "")


def _node_name(plan: KernelPlan, x: Item) -> str:
    base = plan.node_of.get(x.op, plan.body[x.op].results[0] if plan.body[x.op].results else plan.body[x.op].name)
    return base + ("" if x.subtile is None else f"_s{x.subtile}")


def unit_cycles(s: Schedule) -> float:
    """Cycles one unit of the schedule's time (its normalisation's scale) stands for."""
    return float((s.get("normalization") or {}).get("scale") or s.time_unit or 1.0)


def unit_busy(plan: KernelPlan, skip: tuple[str, ...] = ()) -> dict[str, float]:
    """Cycles each unit is reserved an iteration by the graph's ops (those of kinds ``skip`` left out)."""
    unit, busy = unit_cycles(plan.schedule), {}
    for o in plan.graph.ops:
        if o.kind not in skip:
            for r in o.rrt:
                busy[r.unit] = busy.get(r.unit, 0.0) + r.length * unit
    return busy


def ring_depth(nbytes: int, plan: KernelPlan, rate: str = "tma_bytes", iteration: float | None = None) -> int:
    """Buffers a streamed tile needs: the producer may refill a buffer once its last reader released it,
    so ``depth`` buffers hide ``depth - 1`` iterations of load latency (the fixed latency plus the
    transfer at one SM's share of TMA bandwidth, or ``rate``'s); at least two, so the next load overlaps
    this one's use. Where the loop's loads set its II (``load_bound``), every SM streams at once and a copy
    waits in the memory system's queues: its latency, transfer included, is at least the one measured so
    (``loaded_latency``, run 63). ``iteration``: the cycles an iteration takes where not the schedule's II
    (``boxed_iteration``)."""
    m, s = plan.machine, plan.schedule
    unit = unit_cycles(s)
    latency = m.rate("global_latency") + nbytes / m.rate(rate)
    loaded = m.written_cost("loaded_latency") if load_bound(plan) else None
    latency = max(latency, loaded or 0.0)
    return max(2, math.ceil(latency / max(1.0, iteration or s.ii * unit)) + 1)


def boxed_iteration(plan: KernelPlan, boxed_bytes: int) -> float | None:
    """Where the producer copies ``boxed_bytes`` of its pointer tiles an iteration by TMA (the launch allowing), not
    as the pointer loads the II was solved with: the cycles an iteration takes so, the larger of its units' busy time,
    the loads' at TMA's rate (the copies by TMA, the rest as solved); used where under the II, the rings sized for it.
    vLLM's int8 scaled_mm: II 2480 cycles from two 16 KB pointer tiles (their latency holding the producer, before
    ``twill.solve.joint_problem.copied_async``), about 900 an iteration on the GPU; its rings sized for 2480 held one
    copy ahead (671 TOP/s), three ahead 1209 against Triton's 1109 (run 66). Solved with the copies holding the
    producer for their issue only, II 1280 (its integer ALU work's 1024 and the wait on the dot): sized for the II,
    two ahead, run 175 measured that kernel x0.85 of three ahead. None where nothing is boxed or the II is no longer."""
    if not boxed_bytes:
        return None
    m, s = plan.machine, plan.schedule
    unit = unit_cycles(s)
    busy = unit_busy(plan, skip=("load", "tma_load"))
    copied = sum(r.length for o in plan.graph.ops if o.kind == "load" for r in o.rrt) * unit
    tma = sum(r.length for o in plan.graph.ops if o.kind == "tma_load" for r in o.rrt) * unit
    loads = tma + max(0.0, copied - boxed_bytes / m.rate("global_bytes")) + boxed_bytes / m.rate("tma_bytes")
    iteration = max([loads] + list(busy.values()))
    return iteration if iteration < s.ii * unit else None


def branch_iteration(plan: KernelPlan) -> float | None:
    """Where the loop holds work under an ``if`` with no results (a flat (tile, k) loop's epilogue storing the
    accumulator under ``if ki == k_tiles - 1``, taken once a tile) and the II exceeds its units' busy time: the
    schedule serialises that work with the dot every iteration, the GPU runs it once a tile, so the rings are sized
    for the busiest unit's time (the iteration the other trips take), not the II. Inductor's persistent TMA template:
    II 768 cycles held the loads two iterations ahead (504 TFLOP/s graphed, run 77), three ahead ran its nested
    form at 599. None otherwise."""
    s = plan.schedule
    if not any(o.ops and o.ops[0] == "scf.if" and not plan.graph.succs(o.id) for o in plan.graph.ops):
        return None
    iteration = max(unit_busy(plan).values(), default=0.0)
    return iteration if 0 < iteration < s.ii * unit_cycles(s) * 0.8 else None


LOAD_BOUND = 0.9      # the share of the II the loads' reservations fill for the loop to count as bound by them


def load_bound(plan: KernelPlan) -> bool:
    """Whether the loop's loads set its II: their reservations on one load unit (lsu, tma) fill ``LOAD_BOUND`` of it
    or more (the graph's reservations are in the schedule's units, as its II)."""
    s = plan.schedule
    busy: dict[str, int] = {}
    for o in plan.graph.ops:
        if o.kind in ("load", "tma_load"):
            for r in o.rrt:
                busy[r.unit] = busy.get(r.unit, 0) + r.length
    return bool(busy) and max(busy.values()) >= LOAD_BOUND * s.ii


def _rings(plan: KernelPlan, node_of: dict[int, str], group_of: dict[int, int]) -> list[Ring]:
    """One ring per tile the loop loads (one per sub-tile when the tile runs along the split rows)."""
    body, s = plan.body, plan.schedule
    rings = []
    copied = copied_tiles(plan)
    # cp.async: a thread's arrival waits for every copy it issued before, so the iteration's last pointer tile
    # lands with all of them (at the pointer loads' rate); the producer issues them in order, so its rings take
    # the depth that covers that, every one (a shallower ring would hold up the deeper ones behind it)
    copy_bytes = sum(type_info(body[i].result_types[0]).bytes for i in copied)
    found = []
    for i, op in enumerate(body):
        if op.name not in vocab.TMA_LOADS and i not in copied:
            continue
        alloc = next((j for j, o in enumerate(body) if o.name == vocab.LOCAL_ALLOC and o.operands
                      and o.operands[0] == op.results[0]), None)
        tile = body[alloc].results[0] if alloc is not None else op.results[0]
        split = plan.rows is not None and plan.rows.touches(op)
        layout, registers, box, sliced = None, False, None, None
        t = type_info(op.result_types[0])
        shape = list(t.shape)
        if i in copied:
            layout = _copied_layout(plan, op, body[copied[i]])
            registers = not _copy_vectors(plan, op, body[copied[i]])
            box = None if registers else _box(plan, op, body[copied[i]])
            if split:      # the producer copies the whole tile into one ring; each consumer reads its rows' slice
                dim = plan.rows.dims.get(op.results[0], 0)
                sliced, split = (dim, shape[dim] // plan.subtiles), False
        if split:
            shape[plan.rows.dims.get(op.results[0], 0)] //= plan.subtiles
        base = node_of.get(i, op.results[0].lstrip("%"))
        for sub in (range(plan.subtiles) if split else [None]):
            readers = tuple(sorted({p.index for p in plan.consumers for x in p.items
                                    if (sub is None or x.subtile == sub) and _uses(body, x.op, tile)}))
            name = py_name(op.results[0]) + ("" if sub is None else f"_t{sub}")
            nbytes = TypeInfo("smem", tuple(shape), t.dtype).bytes
            found.append((nbytes, Ring(name, i, alloc, op.operands[0], tuple(shape), t.dtype, 0, readers,
                                       (s.start_map.get(base, 0) % s.ii, i), sub, layout, registers, box, sliced,
                                       block_rank=0 if i in copied else _rank(plan.fn.type_of(op.operands[0])))))
    boxed = sum(type_info(body[r.load].result_types[0]).bytes for _, r in found
                if r.box is not None and r.sliced is None and r.subtile in (None, 0))
    iteration = boxed_iteration(plan, boxed)
    if iteration is None and (iteration := branch_iteration(plan)) is not None:
        plan.decisions.append(f"rings sized for {iteration:.0f} cycles an iteration (the busiest unit's), not the II's "
                              f"{s.ii * unit_cycles(s):.0f}: the II holds work under an if taken on some iterations only")
    for nbytes, r in found:
        depth, at_ii = (ring_depth(nbytes, plan, iteration=it) if r.layout is None else
                        ring_depth(copy_bytes, plan, "global_bytes", it) + (plan.copy_warps > COPY_WARPS)
                        for it in (iteration, None))
        rings.append(dataclasses.replace(r, depth=depth))
        if at_ii < depth:
            plan.ii_depths[r.name] = at_ii
    return rings


def settle_boxes(plan: KernelPlan, allowed: bool = True) -> list[str]:
    """The rings a TMA copy can fill (``Ring.box``) once the kernel's loops are planned (a later loop streaming
    through the same ring may have taken a box away, ``sibling``), and the decision they make; where not ``allowed``
    (the route found the TMA path does not compile), none: every pointer tile copied as before."""
    if not allowed:
        for q in plan.sequence:
            q.rings = [dataclasses.replace(r, box=None) for r in q.rings]
        return ["pointer tiles copied with cp.async at every launch, not by TMA: the TMA path did not compile"] \
            if any(r.copied for r in plan.rings) else []
    boxed = plan.boxed
    if not boxed:
        return []
    checks = "".join(f", {c}" for c in dict.fromkeys(c for r in boxed if r.box is not None for c in r.box.checks))
    clamps = list(dict.fromkeys(c for r in boxed if r.box is not None for c in r.box.clamps))
    clamped = (f"; {', '.join(clamps)} clamped by tl.where: the box reads zeros past the bound where the clamp reads "
               "row 0, and those rows reach only accumulator rows every store masks off") if clamps else ""
    return [f"{', '.join(dict.fromkeys(r.name for r in boxed))} by TMA where the launch allows it (TWILL_TMA: the "
            "launcher builds a descriptor over " + ", ".join(sorted({r.box.base for r in boxed if r.box is not None}))
            + f" when the base is 16-byte aligned, the row strides 16-byte multiples{checks}; else cp.async): one TMA "
            f"copy per tile in place of the producer's per-thread copies{clamped}"]


def _box(plan: KernelPlan, load: IROp, alloc: IROp) -> Box | None:
    """The TMA box of a pointer tile its producer copies (``boxes``), where its shared buffer is one a TMA copy
    writes (NVMMA, not transposed); else None, and why in the plan's decisions."""
    smem = parse_type(plan.fn.type_of(alloc.results[0]), aliases(plan.fn.module.text)).layout
    try:
        box = analyse(plan.fn, plan.loop, load)
        if not isinstance(smem, NvmmaShared) or smem.transposed != box.transposed:
            raise NotABox("its shared buffer is not one a TMA copy writes (NVMMA, contiguous along memory's "
                          "contiguous dimension)")
        return box
    except NotABox as e:
        plan.decisions.append(f"{py_name(load.results[0])} copied with cp.async at every launch, not by TMA: {e}")
        return None


def copy_arguments(plan: KernelPlan) -> list[str]:
    """The kernel arguments that must be 16-divisible at launch for the pointer tiles' cp.async copies: every argument
    the comparisons in their masks that may vary along the copied vectors are computed from (``_varying``: a row mask
    broadcast along the contiguous dimension reads no divisibility, as in vLLM's fused MoE, whose gathered rows'
    ``offs_token < num_valid_tokens`` had put the padded token count ``EM`` there: 16-divisible only where the
    experts are, so its launches copied through registers, run 120), and of the arguments their addresses are
    computed from, those without which ``_divisibility`` cannot show each copied address 16-byte aligned. An argument that only scales an extent already a multiple of 16 (a swizzled program id times BLOCK_M, a
    rank times a shard's rows times the row stride) is left out: where it was listed, triton_kernels' matmul_ogs and
    xFormers' sequence-parallel matmul copied through registers at their launches (run 112: x1.42 and x2.37 with
    cp.async), while Triton's own divisibility analysis proves the same addresses aligned."""
    defined, carried = _values(plan)
    pointers, masks = [], []
    for q in plan.sequence:
        loads = [q.body[r.load] for r in q.rings if r.copied] + [q.body[a.load] for a in q.asyncs]
        pointers += [ld.operands[0] for ld in loads]
        masks += [u for ld in loads for v in ld.operands[1:2] for u in _varying(plan, v, _fast_dim(plan, ld),
                                                                                  defined, carried, set())]
    names = {a.name for a in plan.fn.args}
    need = _reached(masks, defined, carried) & names
    keep = (_reached(pointers, defined, carried) & names) - need
    need = _mask_arguments(plan, masks, pointers, need, keep, defined, carried)
    # every address held to 16 bytes: where some cannot be shown so (GPTQ's g_idx-gathered scales, 4 bytes at best),
    # no argument is left out, and such a kernel's launches copy through registers, which ran them faster (run 123:
    # gptq_gemm 31.7 TFLOP/s on registers against 15.5 with its 4-byte cp.async copies; FBGEMM's array-jagged bmm
    # 12.6 against 11.9)
    for a in sorted(keep):
        trial = need | (keep - {a})
        if all(_divisibility(plan, p, trial, defined, carried, {}) >= 16 for p in pointers):
            keep.discard(a)
    return [a.name for a in plan.fn.args if a.name in need | keep]


def _mask_arguments(plan: KernelPlan, masks: list[str], pointers: list[str], need: set[str], keep: set[str],
                    defined: dict[str, IROp], carried: dict[str, list[str]]) -> set[str]:
    """Of the arguments ``need`` the copies' mask comparisons are computed from, those their operands' divisibility
    reads: where every mask is a comparison whose operands divide by 16 with them all 16-divisible, an argument is
    left out if each operand still does and every copied address stays 16-byte aligned without it. A flattened nest's channel offset ``k`` is
    ``(t % (KW * n_k)) % n_k * 64``, a multiple of 64 whatever the filter width ``KW``: listed, ``KW`` = 3 sent a
    3 x 3 conv's copies through registers at every launch (run 202)."""
    ops = [defined.get(m) for m in masks]
    if not ops or any(o is None or o.name != "arith.cmpi" for o in ops):
        return need
    div = lambda u, trial: _divisibility(plan, u, trial, defined, carried, {})   # noqa: E731
    floor = {u: div(u, need | keep) for o in ops for u in o.operands if o is not None}
    if any(f < 16 for f in floor.values()):       # not shown constant along 16 elements with them all: all kept
        return need
    out = set(need)
    for a in sorted(need):
        trial = (out - {a}) | keep
        if all(div(u, trial) >= 16 for u in floor) and all(div(p, trial) >= 16 for p in pointers):
            out.discard(a)
    return out


def _fast_dim(plan: KernelPlan, load: IROp) -> int | None:
    """The dimension a pointer tile's copied vectors run along: its register layout's fastest (None where it is not
    a blocked layout)."""
    layout = parse_type(plan.fn.type_of(load.results[0]), aliases(plan.fn.module.text)).layout
    return layout.order[0] if isinstance(layout, Blocked) else None


def _varying(plan: KernelPlan, v: str, dim: int | None, defined: dict[str, IROp], carried: dict[str, list[str]],
             seen: set[tuple[str, int | None]]) -> list[str]:
    """The values a copy's mask ``v`` is computed from that may vary along dimension ``dim``, by Triton's rules (its
    ``AxisInfo``): a splat, a constant, a scalar and a value broadcast along ``dim`` are constant along it, an
    elementwise op of constant operands too; a comparison of operands that are not is returned, its constancy reading
    their divisibility; ``[v]`` where the walk cannot tell (a loaded mask, a reshape, no blocked layout)."""
    if (v, dim) in seen:
        return []
    seen.add((v, dim))
    if v in carried:
        return [u for s in carried[v] for u in _varying(plan, s, dim, defined, carried, seen)]
    op, table = defined.get(v), aliases(plan.fn.module.text)
    if op is None or dim is None:
        return [] if op is None else [v]          # an argument: a scalar, splat where a tensor reads it
    shape = lambda u: parse_type(plan.fn.type_of(u), table).shape   # noqa: E731
    if not shape(v) or op.name in ("tt.splat", "arith.constant"):
        return []
    if op.name == "tt.broadcast":
        return [] if shape(op.operands[0])[dim] == 1 else _varying(plan, op.operands[0], dim, defined, carried, seen)
    if op.name == "tt.expand_dims":
        axis = int(re.search(r"axis = (\d+)", op.full_text).group(1))
        return [] if axis == dim else _varying(plan, op.operands[0], dim - (axis < dim), defined, carried, seen)
    if not op.name.startswith(("arith.", "math.")) and op.name != "ttg.convert_layout" or \
            any(shape(u) not in ((), shape(v)) for u in op.operands):
        return [v]
    inner = [u for o in op.operands for u in _varying(plan, o, dim, defined, carried, seen)]
    return ([v] if inner else []) if op.name in ("arith.cmpi", "arith.cmpf") else inner


def _values(plan: KernelPlan) -> tuple[dict[str, IROp], dict[str, list[str]]]:
    """The op defining each value of the function and its scheduled loops, and each loop-carried value's sources (its
    initial value and its yield; a loop's result: its last yield; a ``for``'s induction variable: its lower bound
    and step, as Triton's AxisInfo divides it by both: conv_implicit_gemm's channel offset ``k + arange`` counted
    as an argument not known 16-divisible had no copied address shown aligned, so every argument stayed listed)."""
    carried: dict[str, list[str]] = {o.body.args[0]: [o.operands[0], o.operands[2]] for o in plan.fn.ops
                                     if o.name == vocab.LOOP and o.body is not None and o.body.args
                                     and len(o.operands) >= 3}
    defined = {r: o for o in plan.fn.ops for r in o.results}
    for q in plan.sequence:
        body, loop_body = q.body, q.loop.body
        assert loop_body is not None
        yld = next((o for o in body if o.name == vocab.YIELD), None)
        for k, a in enumerate(loop_body.args[1:]):
            carried[a] = [loop_body.inits[k]] + ([yld.operands[k]] if yld and k < len(yld.operands) else [])
            if k < len(q.loop.results) and yld and k < len(yld.operands):
                carried[q.loop.results[k]] = [yld.operands[k]]        # a loop's result: its last yield
        defined.update({r: o for o in body for r in o.results})
    return defined, carried


def _reached(roots: list[str], defined: dict[str, IROp], carried: dict[str, list[str]]) -> set[str]:
    """Every value ``roots`` are computed from (through carried values and the results of a loop before)."""
    frontier, seen = list(roots), set()
    while frontier:
        v = frontier.pop()
        if v in seen:
            continue
        seen.add(v)
        op = defined.get(v)
        frontier += carried.get(v, []) + list(op.operands if op is not None and op.name != vocab.LOOP else ())
    return seen


def _contiguous(v: str, defined: dict[str, IROp], carried: dict[str, list[str]], seen: dict[str, bool]) -> bool:
    """Whether ``v`` may hold runs of consecutive integers (a ``make_range``, moved or offset, not yet scaled by more
    than 1). ``seen``: the values answered (a value met on two paths answered once: as a set of values visited, the
    second path had read False, and paged_prefill's ``slot = bn * PAGE + (start_n + offs_n) % PAGE`` was no run
    where the load of ``bn`` had visited ``start_n + offs_n`` first); one still being answered reads True (a
    carried value's cycle: taken for a run, which can only ask more arguments)."""
    if v in seen:
        return seen[v]
    seen[v] = True
    op = defined.get(v)
    if v in carried:
        out = any(_contiguous(u, defined, carried, seen) for u in carried[v])
    elif op is None:
        out = False
    elif op.name == "tt.make_range":
        out = True
    elif op.name == "arith.muli":
        a, b = op.operands
        out = (_contiguous(a, defined, carried, seen) and _is_one(b, defined)) or \
            (_contiguous(b, defined, carried, seen) and _is_one(a, defined))
    else:
        # any other op of a run is taken for a run (a remainder, a clamp keep runs): in a product, a run divides by its
        # factor only, so taking more for runs can only ask more arguments to be 16-divisible
        out = any(_contiguous(u, defined, carried, seen) for u in op.operands)
    seen[v] = out
    return out


def _is_one(v: str, defined: dict[str, IROp]) -> bool:
    op = defined.get(v)
    while op is not None and op.name in _SAME_DIV:
        op = defined.get(op.operands[0])
    return op is not None and op.name == "arith.constant" and re.search(r"(?:dense<|constant\s+)1\s*(?::|>)", op.text) is not None


def _element_bytes(plan: KernelPlan, ptr: str) -> int:
    """The bytes of the element a pointer (or a tensor of them) points to; 1 where its type cannot be read."""
    try:
        t = plan.fn.type_of(ptr)
    except (KeyError, ValueError):
        return 1
    m = re.search(r"!tt\.ptr<([\w]+)>", t)
    return type_info(f"tensor<1x{m.group(1)}>").bytes if m else 1


_DIV_CAP = 1 << 20
_SAME_DIV = ("arith.extsi", "arith.extui", "arith.index_cast", "tt.splat", "tt.broadcast", "tt.expand_dims",
             "ttg.convert_layout", "tt.reshape", "arith.trunci")


def _divisibility(plan: KernelPlan, v: str, aligned: set[str], defined: dict[str, IROp], carried: dict[str, list[str]],
                  memo: dict[str, int]) -> int:
    """A power of two that divides value ``v`` (in bytes for a pointer), by Triton's rules (its ``AxisInfo``), where the
    arguments in ``aligned`` are 16-divisible and the others may not be: a product multiplies, a sum or a select takes
    the smaller (a remainder too: x % n = x - q * n), ``addptr`` scales the offset by the element's bytes, a range keeps
    its start's, ``tl.multiple_of`` gives its own; a loaded value, a program id and any op not read here divides by 1."""
    if v in memo:
        return memo[v]
    memo[v] = _DIV_CAP                     # a carried value's cycle: its initial value and steps decide
    go = lambda u: _divisibility(plan, u, aligned, defined, carried, memo)   # noqa: E731
    op = defined.get(v)
    if v in carried:
        before = set(memo)
        d = min(go(u) for u in carried[v])
        for u in set(memo) - before:    # found while the cycle assumed the most: found again where read from outside
            memo.pop(u)
    elif op is None:
        d = 16 if v in aligned else 1       # an argument (or a value this walk does not see)
    elif (hint := re.search(r"tt\.divisibility = (?:dense<)?(\d+)", op.full_text)) is not None:
        d = min(_DIV_CAP, int(hint.group(1)))      # tl.multiple_of, which Triton's analysis takes as given
    elif op.name == "arith.constant":
        m = re.search(r"(?:dense<|value = |constant\s+)(-?\d+)\s*(?::|>)", op.text)
        n = abs(int(m.group(1))) if m else 1
        d = _DIV_CAP if n == 0 else min(_DIV_CAP, n & -n)
    elif op.name == "tt.make_range":
        m = re.search(r"start = (\d+)", op.full_text)
        n = int(m.group(1)) if m else 1
        d = _DIV_CAP if n == 0 else n & -n
    elif op.name == "arith.muli":     # a range times anything but 1 divides by its factor only (Triton: [2^n, 2^n+1, ...]
        a, b = op.operands           # counts as 1, as its elements after the first do)
        da = 1 if _contiguous(a, defined, carried, {}) and not _is_one(b, defined) else go(a)
        db = 1 if _contiguous(b, defined, carried, {}) and not _is_one(a, defined) else go(b)
        d = min(_DIV_CAP, da * db)
    elif op.name in ("arith.addi", "arith.subi", "arith.maxsi", "arith.minsi", "arith.remsi", "arith.remui"):
        d = min(go(op.operands[0]), go(op.operands[1]))
    elif op.name == "arith.select":
        d = min(go(op.operands[1]), go(op.operands[2]))
    elif op.name == "tt.addptr":
        d = min(go(op.operands[0]), min(_DIV_CAP, go(op.operands[1]) * _element_bytes(plan, op.operands[0])))
    elif op.name in _SAME_DIV:
        d = go(op.operands[0])
    else:
        d = 1
    memo[v] = d
    return d


def _copied_layout(plan: KernelPlan, load: IROp, alloc: IROp) -> str:
    """The shared layout attribute of a pointer tile's ring (its ``local_alloc``'s); refused in one line
    where the producer cannot copy it: a fill value other than zero (``cp.async`` zero-fills the elements its mask
    leaves out)."""
    where = source_where(load)
    if len(load.operands) > 2 and not _zero_constant(plan.fn, load.operands[2]):
        raise UnsupportedError("a pointer-loaded dot operand whose masked elements are not zero", where=where,
                               expected="tl.load(..., mask=..., other=0) (cp.async fills with zeros)",
                               found=f"other = {load.operands[2]}")
    m = re.search(r"!ttg\.memdesc<[^,]+,\s*(#[\w]+)", alloc.full_text)
    if m is None:
        raise UnsupportedError("a pointer tile's shared layout could not be read", where=where, found=alloc.text[:80])
    return m.group(1)


def _copy_vectors(plan: KernelPlan, load: IROp, alloc: IROp) -> bool:
    """Whether cp.async can copy the tile: not where its contiguous dimension in shared memory is not its contiguous
    one in global memory and its elements are narrower than the 4 bytes cp.async copies at least (an int8 or fp8 B
    loaded N-contiguous: wgmma reads 8-bit operands K-major, so Triton lays the buffer out transposed; each copy would
    move one byte, and Triton's lowering asserts). Such a tile is loaded into the producer's registers and stored
    transposed, as Triton's own pipeline does."""
    table = aliases(plan.fn.module.text)
    regs = parse_type(plan.fn.type_of(load.results[0]), table).layout
    smem = parse_type(plan.fn.type_of(alloc.results[0]), table).layout
    if not isinstance(regs, Blocked) or not isinstance(smem, NvmmaShared):
        return True
    return regs.order[0] == (0 if smem.transposed else 1) or smem.bits >= 32


def _zero_constant(fn: Function, value: str) -> bool:
    """Whether ``value`` is a constant zero (``dense<0.000000e+00>``, ``dense<0>``)."""
    op = next((o for o in fn.ops if value in o.results), None)
    m = re.search(r"arith\.constant (?:dense<)?([-+\w.]+)", op.text) if op is not None else None
    try:
        return m is not None and float(m.group(1)) == 0.0
    except ValueError:
        return False


def _uses(body: list[IROp], j: int, value: str) -> bool:
    """Whether body op j reads ``value`` directly or through views of it (a transposed shared tile)."""
    seen, frontier = {value}, [value]
    while frontier:
        v = frontier.pop()
        for o in body:
            if v in o.operands and o.name in vocab.SMEM_VIEWS and o.results and o.results[0] not in seen:
                seen.add(o.results[0])
                frontier.append(o.results[0])
    return bool(seen & set(body[j].operands))


SM_SMEM = 233472               # shared memory per SM (Hopper), the CTAs' own 1 KB each included
SCRATCH_MARGIN = 16384         # Triton's own scratch beyond the planned buffers (run 29d: 8 KB in chunk_state)
TWO_CTA_SLACK = -REG_OVERHEAD              # registers per thread a consumer keeps beyond its estimated need at two CTAs per SM


def _two_ctas(plan: KernelPlan) -> None:
    """Two CTAs per SM where their buffers fit and the partitions' estimated needs fit half the register file
    (with ``TWO_CTA_SLACK``): the launch's register limit and the setmaxnreg targets halved, so another CTA's loads
    are in flight while one waits (run 29e: chunk_state 1.26x with a limit of 128 against 256, 0.97x Triton's best);
    the kernel is then not persistent (``one_cta_per_sm``). A warp-specialized kernel whose consumers need more than
    half keeps the whole file (the GEMMs and attention kernels). Rings made deeper for an iteration shorter than the
    II (``KernelPlan.ii_depths``) go back to the II's depth where that lets two CTAs fit."""
    rings, smem = list(plan.rings), plan.smem_bytes
    if plan.maxnreg is not None and 2 * (smem + SCRATCH_MARGIN + 1024) > SM_SMEM and plan.ii_depths:
        plan.rings = [dataclasses.replace(r, depth=min(r.depth, plan.ii_depths.get(r.name, r.depth)))
                      for r in plan.rings]
        plan.smem_bytes = _smem(plan)
    if plan.maxnreg is None or 2 * (plan.smem_bytes + SCRATCH_MARGIN + 1024) > SM_SMEM:
        plan.rings, plan.smem_bytes = rings, smem
        return
    whole = list(plan.partitions), plan.maxnreg
    try:
        _registers(plan, REG_FILE // 2, TWO_CTA_SLACK)
    except UnsupportedError:
        plan.partitions, plan.maxnreg = whole
        plan.rings, plan.smem_bytes = rings, smem
        return
    plan.two_ctas = True
    if plan.rings != rings:
        plan.decisions.append("rings sized for the II, not the shorter iteration their copies allow, so two CTAs fit "
                              "an SM (run 177: tail_gemm's rings one deeper, one CTA an SM, x0.94)")
    needs = ", ".join(str(p.need_regs) for p in plan.partitions)
    short = [p for p in plan.partitions if p.role == "consumer" and p.need_regs > p.regs]
    plan.decisions.append(f"two CTAs per SM: the partitions' registers ({needs} needed per thread) fit half the "
                          f"register file, so the launch's limit is {plan.maxnreg} (run 29e: chunk_state 1.26x with "
                          "two CTAs against one)" if not short else
                          f"two CTAs per SM: the partitions' live tiles fit half the register file ({needs} needed "
                          f"per thread with the {REG_OVERHEAD} the model adds for addresses and indices; consumer "
                          f"{short[0].index} is given {short[0].regs}, the allowance left to ptxas), so the launch's "
                          f"limit is {plan.maxnreg} (run 29e: chunk_state 1.26x with two CTAs against one)")


def _registers(plan: KernelPlan, file: int = REG_FILE, slack: int = 0) -> None:
    """setmaxnreg targets: the producer the minimum, the consumers an equal share of the rest; refused
    when a consumer's tiles need more than its share (the schedule's register footprints, live from
    definition to last use over the steady state, per thread, plus indices and addresses; ``slack`` more).
    ``file``: the registers the CTA may take (half the SM's for two CTAs per SM)."""
    # the one-warp partitions (producer, reducer) share one warp group, and setmaxnreg sets one count per
    # warp group: the most either needs; the default partition gets 512 - SMALL_GROUP_SLACK - the workers'
    small = [p for p in plan.partitions if p.role != "consumer"]
    if not small and len(plan.partitions) == 1:         # one partition, no warp_specialize: ptxas allocates
        p = plan.partitions[0]
        need = _register_need(plan).get(p.index, 0)
        plan.partitions = [Partition(p.index, p.role, p.group, p.warps, p.subtiles, p.items, 0, need)]
        plan.maxnreg = None
        return
    reducer = SPLIT_REDUCER_REGS if plan.column_split is not None else REDUCER_REGS
    small_regs = max([producer_regs(plan) if p.role == "producer" else reducer for p in small], default=0)
    small_groups = math.ceil(sum(p.warps for p in small) / 4)
    consumer_groups = sum(max(1, math.ceil(p.warps / 4)) for p in plan.consumers)
    total_groups = consumer_groups + small_groups
    left = file // 128 - SMALL_GROUP_SLACK * file // REG_FILE - small_regs * small_groups
    share = min(MAX_REGS, (left // consumer_groups) // 8 * 8)
    need = _register_need(plan)
    copies = any(r.copied for r in plan.rings)
    out = []
    for p in plan.partitions:
        regs = share if p.role == "consumer" else small_regs
        want = need.get(p.index, producer_regs(plan) if p.role == "producer" and copies else 0)
        if p.role == "consumer" and want + slack > regs:
            raise UnsupportedError("the schedule cannot fit the register file", where=plan.graph.name,
                                   expected=f"<= {regs} registers per thread for consumer {p.index}",
                                   found=f"about {want} (its live tiles over {p.warps} warps, plus {REG_OVERHEAD})")
        out.append(Partition(p.index, p.role, p.group, p.warps, p.subtiles, p.items, regs, want))
    plan.partitions = out
    plan.maxnreg = min(MAX_REGS, (file // (32 * 4 * total_groups)) // 8 * 8)


def producer_regs(plan: KernelPlan) -> int:
    """The producer's registers per thread: a TMA producer's minimum, or, copying pointer tiles, each 16-byte
    vector's address (two registers) and mask bit over its threads, plus indices and phases."""
    copied = [r for r in plan.rings if r.copied]
    if not copied:
        return PRODUCER_REGS
    vectors = sum(math.ceil(r.bytes / (32 * plan.copy_warps * 16)) for r in copied)
    return min(MAX_REGS, max(PRODUCER_REGS, math.ceil((3 * vectors + REG_OVERHEAD) / 8) * 8))


def _register_need(plan: KernelPlan) -> dict[int, int]:
    """Peak live register bytes per consumer over the modulo schedule, as registers per thread."""
    g, s = plan.graph, plan.schedule
    start, warp = s.start_map, s.warp_map
    ii = s.ii
    out: dict[int, int] = {}
    table = aliases(plan.fn.module.text)
    for p in plan.consumers:
        nodes = [o for o in g.ops if warp.get(o.id) == p.group and o.regs]
        live = [0] * ii
        for o in nodes:
            ends = [start[d.dst] + ii * d.distance for d in g.succs(o.id)] or [start[o.id] + 1]
            span = max(1, max(ends) - start[o.id])
            regs = max(0, o.regs - broadcast_saving(o.ir, table))
            for t in range(start[o.id], start[o.id] + min(span, ii * 8)):
                live[t % ii] += regs
        peak = max(live, default=0)
        out[p.index] = math.ceil(peak / (4 * 32 * p.warps)) + REG_OVERHEAD
    return out


def broadcast_saving(ir: tuple[str, ...], table: dict[str, str]) -> int:
    """The register bytes a node's footprint counts for a tile that is a row (or column) broadcast, converted to
    another layout, beyond what the threads hold of it: the back end converts the row and broadcasts after
    (``ops.convert_layout``), so each thread keeps the distinct values of its columns, not a full tile's worth
    (SGLang's fp8 MoE: 32 registers per thread for the block scales' row, not 64)."""
    saving = 0
    for row, result in layout_conversions(ir):
        if row is None:
            continue
        try:
            tile, src = parse_type(result, table), parse_type(row, table)
        except (KeyError, ValueError, UnsupportedError):
            continue
        held = per_thread(tile.layout, src.shape)
        if held is None or tile.layout is None:
            continue
        full = type_info(result).bytes
        saving += max(0, full - held * 32 * tile.layout.warps * full // max(1, math.prod(tile.shape)))
    return saving


def _tc_order(plan: KernelPlan) -> None:
    """The tensor-core order of the schedule: every consumer's dots of an iteration by slot, cut into
    runs of one consumer each (the turn barriers keep the runs in this order, so one partition's dots
    run while another does its softmax)."""
    body = plan.body
    dots = sorted((x.key, p.index, (x.op, x.subtile)) for p in plan.consumers for x in p.items
                  if body[x.op].name in vocab.DOTS)
    runs: list[tuple[int, tuple[tuple[int, int | None], ...]]] = []
    for _, p, d in dots:
        if runs and runs[-1][0] == p:
            runs[-1] = (p, runs[-1][1] + (d,))
        else:
            runs.append((p, (d,)))
    plan.tc_runs = runs


def stageable(fn: Function, body: list[IROp]) -> dict[int, tuple[str, tuple[int, ...] | None, list[int]]]:
    """The dots whose A operand is a 16-bit register tile converted to the dot-operand layout (through a
    transpose or not): dot op -> (the tile, the transpose's order or None, the conversion ops, which
    only these dots read)."""
    defined = {r: i for i, op in enumerate(body) for r in op.results}
    readers: dict[str, list[int]] = {}
    for i, op in enumerate(body):
        for v in op.operands:
            readers.setdefault(v, []).append(i)
    out: dict[int, tuple[str, tuple[int, ...] | None, list[int]]] = {}
    for j, op in enumerate(body):
        if op.name not in vocab.DOTS or not op.operands:
            continue
        d = defined.get(op.operands[0])
        if d is None or body[d].name != "ttg.convert_layout" or "dot_op" not in body[d].full_text:
            continue
        src, perm, convs = body[d].operands[0], None, [d]
        t = defined.get(src)
        if t is not None and body[t].name == "tt.trans":
            m = re.search(r"order = array<i32: ([\d, ]+)>", body[t].full_text)
            perm = tuple(int(x) for x in m.group(1).split(",")) if m else (1, 0)
            src, convs = body[t].operands[0], convs + [t]
        info = type_info(fn.type_of(src))
        if info.space != "regs" or info.dtype not in ("f16", "bf16"):
            continue
        out[j] = (src, perm, convs)
    used = {c for _, _, cs in out.values() for c in cs}
    for j, (src, perm, convs) in list(out.items()):
        for c in convs:     # a conversion also read by something else stays (the dot reads the buffer anyway)
            if any(r not in out and r not in used for r in readers.get(body[c].results[0], [])):
                out[j] = (src, perm, [x for x in convs if x != c])
    return out


def _staging(plan: KernelPlan) -> Staging:
    """The staged A operands of every consumer's dots (``stageable``), one buffer per tile and sub-tile."""
    st = Staging()
    found = stageable(plan.fn, plan.body)
    for p in plan.consumers:
        for x in p.items:
            if x.op not in found:
                continue
            src, perm, convs = found[x.op]
            st.reads[x.op] = (src, perm)
            st.skip.update(convs)
            name = staged_name(src, x.subtile)
            if any(b.name == name for b in st.buffers):
                continue
            info = type_info(plan.fn.type_of(src))
            st.buffers.append(Staged(name, src, x.subtile, p.index, info.dtype,
                                     _subtile_shape(plan, info.shape, src, x.subtile)))
    return st


def _allocs(plan: KernelPlan) -> None:
    """The loop's own ``ttg.local_alloc`` of a register tile (a dot's B operand computed in registers: a
    dequantised weight tile, a scaled operand; wgmma reads B from shared memory only): buffers allocated once per
    consumer and sub-tile, one per iteration in flight, so that an iteration's store never overwrites the tile a
    wgmma of the iteration before still reads (the loop's dots retire at most one body late: two buffers where
    the dots read the tile in the stage that stores it, one more per stage between). Allocated in the loop, the
    buffer would be written while the last iteration's asynchronous wgmma still reads it. The loop's TMA stores get
    staging buffers of their own here too (``_loop_store``)."""
    for p in plan.consumers:
        stage_of = {(x.op, x.subtile): x.stage for x in p.items}
        for x in p.items:
            op = plan.body[x.op]
            if op.name == "tt.descriptor_store":
                _loop_store(plan, p, x, op)
                continue
            if op.name != "ttg.local_alloc" or not op.operands:
                continue
            plan.staging.allocs.add(x.op)
            name = alloc_name(plan, op.results[0], x.subtile, p.index)
            if any(b.name == name for b in plan.staging.buffers):
                continue
            views = {op.results[0]} | {r for o in plan.body if o.name.startswith("ttg.memdesc") and o.operands
                                       and o.operands[0] == op.results[0] for r in o.results}
            lag = max((stage_of[(j, x.subtile)] - x.stage for j, o in enumerate(plan.body)
                       if o.name in vocab.DOTS and views & set(o.operands) and (j, x.subtile) in stage_of), default=0)
            info = type_info(plan.fn.type_of(op.results[0]))
            smem = parse_type(plan.fn.type_of(op.results[0]), aliases(plan.fn.module.text)).layout
            plan.staging.buffers.append(Staged(name, op.results[0], x.subtile, p.index, info.dtype,
                                               _subtile_shape(plan, info.shape, op.operands[0], x.subtile),
                                               smem.spell() if smem is not None else None, 2 + lag))


def _loop_store(plan: KernelPlan, p: Partition, x: Item, op: IROp) -> None:
    """A TMA store inside the loop (a grid-stride loop over row blocks storing each through a descriptor): the tile
    staged into one of two buffers of its own, in the descriptor's layout, and copied out by TMA; a copy still reading
    one buffer is waited for only before the store two iterations later (``tma.store_wait(1)``)."""
    plan.staging.stores.add(x.op)
    desc, value = op.operands[0], op.operands[-1]
    name = stored_name(value, x.subtile)
    if any(b.name == name for b in plan.staging.buffers):
        return
    info = type_info(plan.fn.type_of(value))
    shape = _subtile_shape(plan, info.shape, value, x.subtile)
    layout = descriptor_layout(plan.fn, desc, aliases(plan.fn.module.text))   # the descriptor's own shared layout
    plan.staging.buffers.append(Staged(name, value, x.subtile, p.index, info.dtype, shape, layout, 2))


def descriptor_layout(fn: Function, desc: str, table: dict[str, str]) -> str:
    """The shared layout of descriptor ``desc``'s block, as the generated code names it: ``<desc>.layout`` for an
    argument, spelled out for one the kernel makes (``ops.make_descriptor``: the entry function, which allocates the
    buffers, does not hold it)."""
    if any(a.name == desc for a in fn.args):
        return f"{py_name(desc)}.layout"
    t = parse_type(fn.type_of(desc), table)
    lay = t.layout
    assert isinstance(lay, NvmmaShared), desc
    return dataclasses.replace(lay, rank=len(t.shape)).spell()


def stored_name(value: str, subtile: int | None) -> str:
    return f"{py_name(value)}_out" + ("" if subtile is None else f"_t{subtile}")


ASYNC_MIN_BYTES = 2048     # a register-read tile worth a ring of its own (not a row of scales or zero points)
_ADDRESSING = frozenset({"tt.addptr", vocab.POINTER_LOAD, "tt.store", "tt.atomic_rmw", "tt.atomic_cas"})


def _async_tiles(plan: KernelPlan) -> None:
    """The consumers' pointer loads of register tiles that feed a synchronous dot (``AsyncTile``), or with
    ``plan.copy_wgmma`` any dot (a wgmma's register A operand, or its B stored to a shared buffer), where cp.async
    can copy them: whole tiles (not split between sub-tiles) through a tensor of pointers, zero where masked, 4 bytes
    or more per thread along their contiguous dimension, read at least a stage after they are issued. Without
    ``copy_wgmma`` a wgmma's tile stays a stage in registers (w8a16_gemm: faster so, run 30a); ``wgmma_copyable``
    says whether it would change anything (the route tries it where ptxas spills: tutorial 10's ``dot_scaled``,
    whose tiles held a stage in registers spilled 362 instructions a trip)."""
    table = aliases(plan.fn.module.text)
    crowded: list[AsyncTile] = []
    for k, p in enumerate(plan.partitions):
        if p.role != "consumer":
            continue
        items = list(p.items)
        for x in p.items:
            direct = _direct_tile(plan, p, x, table)
            if direct is not None:
                plan.asyncs.append(direct)
                items[items.index(x)] = direct.read
                items = [y for y in items if y.op != direct.alloc]
                plan.staging.allocs.discard(direct.alloc)
                plan.staging.buffers = [b for b in plan.staging.buffers if b.value != plan.body[direct.alloc].results[0]]
                continue
            tile = _async_tile(plan, p, x, table, plan.copy_wgmma)
            if tile is None and not plan.copy_wgmma and _async_tile(plan, p, x, table, True) is not None:
                plan.wgmma_copyable = True
            if tile is not None and _smem(plan) + tile.bytes + SCRATCH_MARGIN > plan.machine.smem_per_cta:
                crowded.append(tile)     # its buffers would not fit beside the others and Triton's scratch: read a
                continue                 # stage ahead in registers (bitsandbytes' four gathers of 64 KB each)
            if tile is not None:
                plan.asyncs.append(tile)
                items[items.index(x)] = tile.read
        items.sort(key=lambda x: (x.key, -1 if x.subtile is None else x.subtile))
        plan.partitions[k] = dataclasses.replace(p, items=tuple(items))
    if crowded:
        plan.decisions.append(
            "register-read pointer tiles loaded a stage ahead in registers, not copied with cp.async: their buffers ("
            + ", ".join(f"{a.name} {a.depth} x {a.bytes // a.depth} B" for a in crowded)
            + f") would not fit in the {plan.machine.smem_per_cta} bytes of shared memory beside the others and "
            f"{SCRATCH_MARGIN} bytes kept for Triton's scratch")
    direct = [a for a in plan.asyncs if a.alloc is not None]
    if direct:
        plan.decisions.append(
            "wgmma tiles copied by their consumer with cp.async straight into the buffers the wgmma reads ("
            + ", ".join(f"{a.name}: {a.depth} x {a.bytes // a.depth} B, issued {a.read.stage - a.issue.stage} "
                        "iteration(s) ahead" for a in direct)
            + "): one commit group per body; read after wait_group and a barrier (no proxy fence after cp.async, as "
            "Triton's pipelined loops; a copy through registers is fenced after its store), a slot copied again only "
            "once the wgmmas that read it have retired and a barrier followed (Triton's pipelining of one partition's "
            "tiles: tutorial 06's backward, loaded a stage ahead in registers, x0.80 of Triton's best; so, x0.99: "
            "runs 89, 92)")
    if len(plan.asyncs) > len(direct):
        plan.decisions.append(
            "register-read pointer tiles copied by their consumer with cp.async ("
            + ", ".join(f"{a.name} {a.depth} x {a.bytes // a.depth} B" for a in plan.asyncs if a.alloc is None)
            + "): issued at the load's stage, one commit group per body, read at the first reader's stage after "
            "wait_group and a barrier, in the layout that reader wants (Triton's own pipelining of such loads; held a "
            "stage in registers, GQA decode ran x0.65 Triton's best, run 29c)")


PREFETCH = 3     # iterations ahead a one-partition kernel copies its wgmma tiles (Triton's num_stages 4)


def _direct_loads(plan: KernelPlan) -> list[int]:
    """The loop's pointer loads a consumer loading its own tiles (``own_tiles``) copies with cp.async straight into
    the shared buffers a wgmma reads (``_direct_tile``), ``plan.prefetch`` iterations ahead: whole tiles whose only
    reader is their ``local_alloc`` (``pointer_tiles``), which cp.async can copy (``_copyable``)."""
    if not plan.own_tiles or plan.prefetch <= 0:
        return []
    table = aliases(plan.fn.module.text)
    out = []
    for i in pointer_tiles(plan.body):
        op = plan.body[i]
        t = plan.fn.type_of(op.results[0])
        lay = parse_type(t, table).layout
        if (isinstance(lay, Blocked) and _copyable(plan.fn, op, lay, type_info(t))
                and not (plan.rows is not None and plan.rows.touches(op))):
            out.append(i)
    return out


def _memdesc_views(body: list[IROp], value: str) -> set[str]:
    """``value`` and every view of it the loop body takes (``ttg.memdesc_trans``, ``memdesc_subslice``...)."""
    views, todo = {value}, [value]
    while todo:
        u = todo.pop()
        for o in body:
            if o.name.startswith("ttg.memdesc") and o.operands and o.operands[0] == u:
                new = set(o.results) - views
                views |= new
                todo += list(new)
    return views


def _direct_tile(plan: KernelPlan, p: Partition, x: Item, table: dict[str, str]) -> AsyncTile | None:
    """A pointer tile only wgmmas read (its ``local_alloc`` and views of it), in a kernel whose consumer loads its own
    tiles: copied with cp.async into ``depth`` buffers in the ``local_alloc``'s shared layout at the load's stage (run
    ``plan.prefetch`` stages before the alloc, ``_add_pointer_loads``), the alloc's result naming the slot. A slot is
    copied again only after the wgmmas reading it retired (at most one body after their stage) and a barrier followed:
    the barrier of a body after that, before the copy where the copy comes after the read in body order."""
    body = plan.body
    alloc = pointer_tiles(body).get(x.op)
    if alloc is None or x.op not in _direct_loads(plan) or x.subtile is not None:
        return None
    at = [y for y in p.items if y.op == alloc]
    if len(at) != 1 or at[0].stage <= x.stage:
        return None
    y, res = at[0], body[alloc].results[0]
    views = _memdesc_views(body, res)
    readers = [j for j, o in enumerate(body) if views & set(o.operands) and not o.name.startswith("ttg.memdesc")]
    stage_of = {z.op: z.stage for z in p.items}
    if not readers or any(body[j].name not in vocab.DOTS or j not in stage_of for j in readers):
        return None
    smem = parse_type(plan.fn.type_of(res), table).layout
    if smem is None:
        return None
    read = Item(x.op, None, y.stage, (y.key[0], y.key[1] - 2 * len(body)))
    last = max(stage_of[j] for j in readers)
    depth = last - x.stage + (2 if x.key > read.key else 3)
    info = type_info(plan.fn.type_of(res))
    return AsyncTile(f"{py_name(res)}_ring", x.op, p.index, tuple(info.shape), info.dtype, res, smem.spell(), depth,
                     x, read, alloc)


def _async_tile(plan: KernelPlan, p: Partition, x: Item, table: dict[str, str],
                wgmma: bool = False) -> AsyncTile | None:
    body = plan.body
    op = body[x.op]
    if op.name != vocab.POINTER_LOAD:
        return None
    split = x.subtile is not None or (plan.rows is not None and plan.rows.touches(op))
    v = op.results[0]
    lay, info = parse_type(plan.fn.type_of(v), table).layout, type_info(plan.fn.type_of(v))
    if not isinstance(lay, Blocked) or not _copyable(plan.fn, op, lay, info):
        return None
    readers = [y for y in p.items if v in body[y.op].operands]
    if not readers or any(body[y.op].name in _ADDRESSING or y.stage <= x.stage for y in readers):
        return None
    accumulator = _accumulator_read(plan, readers, lay, info, table)
    if accumulator is None and (split or not _feeds_dot(body, v, wgmma)):
        return None
    first = min(readers, key=lambda y: (y.stage, y.key))
    read = Item(x.op, x.subtile, first.stage, (first.key[0], first.key[1] - 2 * len(body)))
    via, shared = accumulator or _read_layout(plan, readers, v, lay, info, table)
    # a copy into a slot must follow every thread's read of the tile the slot held: the barrier before this body's
    # read guards it where the copy is issued after that read; else only the body before's does (one slot more)
    d = first.stage - x.stage
    depth = d + 1 if x.key > read.key else d + 2
    shape = _subtile_shape(plan, info.shape, v, x.subtile)
    name = f"{py_name(v)}_as" + ("" if x.subtile is None else f"_t{x.subtile}")
    return AsyncTile(name, x.op, p.index, shape, info.dtype, via, shared.spell(), depth, x, read)


def _accumulator_read(plan: KernelPlan, readers: list[Item], lay: Blocked, info: TypeInfo,
                      table: dict[str, str]) -> tuple[str, SwizzledShared] | None:
    """Where every reader of pointer tile ``v`` converts it to one wgmma or mma.sync accumulator layout (a bias added
    to the scores: ``tests/corpus/bias_attention.py``), the conversion's value and a swizzled buffer to read it from
    in that layout (16-byte vectors, rows XORed across eight of them: the accumulator's eight rows a read instruction
    touches fall in distinct banks); None otherwise. Held a stage in registers and converted through shared memory
    every iteration, the bias tile ran x0.75 Triton's best (run 51), which copies it so."""
    body = plan.body
    if any(body[y.op].name != "ttg.convert_layout" for y in readers):
        return None
    outs = {parse_type(plan.fn.type_of(body[y.op].results[0]), table).layout for y in readers}
    out = next(iter(outs)) if len(outs) == 1 else None
    if not isinstance(out, Mma):
        return None
    elem = max(1, info.bytes // math.prod(info.shape))
    per_phase = max(1, 128 // (info.shape[lay.order[0]] * elem))        # rows of the contiguous dimension a phase spans
    shared = SwizzledShared(max(1, 16 // elem), per_phase, max(1, 8 // per_phase), lay.order)
    return body[readers[0].op].results[0], shared


def _copyable(fn: Function, op: IROp, lay: Blocked, info: TypeInfo) -> bool:
    """Whether cp.async can copy load ``op``'s tile: a 2-D tile through a tensor of pointers (not a block pointer),
    worth a ring (``ASYNC_MIN_BYTES``), 4 bytes or more per thread along its contiguous dimension (Gluon 3.6 fails to
    compile narrower copies), zero where masked (cp.async fills with zeros)."""
    elem = info.bytes // math.prod(info.shape)
    return (fn.type_of(op.operands[0]).startswith("tensor<") and len(info.shape) == 2
            and info.bytes >= ASYNC_MIN_BYTES and lay.size_per_thread[lay.order[0]] * elem >= 4
            and (len(op.operands) <= 2 or _zero_constant(fn, op.operands[2])))


def _read_layout(plan: KernelPlan, readers: list[Item], v: str, lay: Blocked, info: TypeInfo,
                 table: dict[str, str]) -> tuple[str, SwizzledShared]:
    """The value whose layout a copied tile is read in, and its buffer's layout: where every reader converts it to one
    mma.sync or FMA operand layout, that layout (an mma.sync operand through Triton's swizzle, ``mma_v2_swizzle``);
    else the load's own, unswizzled."""
    body = plan.body
    outs = {parse_type(plan.fn.type_of(body[y.op].results[0]), table).layout for y in readers}
    dot = next(iter(outs)) if len(outs) == 1 else None
    if (not isinstance(dot, DotOperand) or any(body[y.op].name != "ttg.convert_layout" for y in readers)
            or not (isinstance(dot.parent, Blocked) or (isinstance(dot.parent, Mma) and dot.parent.version[0] == 2))):
        return v, SwizzledShared(1, 1, 1, lay.order)
    via = body[readers[0].op].results[0]
    if isinstance(dot.parent, Blocked):
        return via, SwizzledShared(1, 1, 1, lay.order)
    bits = 8 * info.bytes // math.prod(info.shape)
    return via, mma_v2_swizzle(dot.index, info.shape, lay.order, dot.k_width, bits)


def _feeds_dot(body: list[IROp], value: str, wgmma: bool = False) -> bool:
    """Whether ``value`` reaches an operand of a synchronous dot (``tt.dot``: mma.sync or FMAs) in the loop body,
    through register ops (a conversion, a dequantisation); with ``wgmma``, of any dot, a wgmma's B through the shared
    buffer it is stored to. By default not a wgmma's: w8a16_gemm's int8 tile copied so ran 225 TFLOP/s against 258
    held a stage in registers (run 30a)."""
    seen, frontier = {value}, [value]
    while frontier:
        u = frontier.pop()
        for o in body:
            if u not in o.operands:
                continue
            if o.name in vocab.DOTS:
                if (o.name == "tt.dot" or wgmma) and u in o.operands[:2]:
                    return True
                continue
            if wgmma and o.name == vocab.LOCAL_ALLOC:
                return True
            if o.name in vocab.STORES or o.name in (vocab.YIELD, vocab.LOCAL_ALLOC):
                continue
            frontier += [r for r in o.results if r not in seen]
            seen.update(o.results)
    return False


def mma_v2_swizzle(index: int, shape: tuple[int, ...], order: tuple[int, ...], k_width: int, bits: int) -> SwizzledShared:
    """The shared layout Triton 3.6 gives an mma.sync operand it copies with cp.async and reads with ldmatrix: vectors
    of the instruction's 8 x 8 x 4*kWidth tile along the contiguous dimension, a phase per 128-byte line's worth of
    rows, as many phases as 128 bytes hold vectors (matches Triton's own compile of every mma.sync operand of the
    corpus, ``tests/unit/test_consumer_copies.py``; a layout off it reads correctly, only with bank conflicts)."""
    nbytes = max(1, bits // 8)
    per_phase = max(128 // (shape[order[0]] * nbytes), 1)
    mat_k = 4 * k_width
    if index == 0:
        vec = mat_k if order[0] == 1 else 8
    else:
        vec = 8 if order[0] == 1 else mat_k
    return SwizzledShared(vec, per_phase, max(128 // (vec * nbytes) // per_phase, 1), tuple(order))


def _subtile_shape(plan: KernelPlan, shape: tuple[int, ...], value: str, subtile: int | None) -> tuple[int, ...]:
    """A register tile's ``shape`` as one row sub-tile holds it: its split dimension (``value``'s, where the rows
    run through it) divided among the sub-tiles."""
    out = list(shape)
    dim = plan.rows.dims.get(value) if plan.rows is not None and subtile is not None else None
    if dim is not None and dim < len(out):
        out[dim] //= plan.subtiles
    return tuple(out)


def _fit_smem(plan: KernelPlan) -> int:
    """Shared memory planned; the deepest ring is made shallower (not below two) while it does not fit."""
    while _smem(plan) > plan.machine.smem_per_cta:
        deep = [r for r in plan.rings if r.depth > 2]
        if not deep:
            break
        r = max(deep, key=lambda x: (x.depth, x.bytes))
        plan.rings[plan.rings.index(r)] = dataclasses.replace(r, depth=r.depth - 1)
        plan.decisions.append(f"ring {r.name} made {r.depth - 1} deep to fit shared memory")
    return _smem(plan)


def _largest_buffers(plan: KernelPlan, n: int = 4) -> str:
    """The ``n`` largest of the plan's rings, staged operands and copied tiles, named with their bytes, and what the
    rest add: what a refusal for shared memory says (the rings alone named none of bitsandbytes' four gathers)."""
    parts = ([(f"{r.name} ring {r.depth} x {r.bytes}", r.depth * r.bytes) for r in plan.rings]
             + [(f"{b.name} {b.bytes}", b.bytes) for b in plan.staging.buffers]
             + [(f"{a.name} {a.depth} x {a.bytes // a.depth}", a.bytes) for a in plan.asyncs])
    parts.sort(key=lambda x: -x[1])
    rest = plan.smem_bytes - sum(b for _, b in parts[:n])
    return ", ".join([w for w, _ in parts[:n]] + ([f"{rest} more"] if rest > 0 else []))


def _smem(plan: KernelPlan) -> int:
    """Bytes of shared memory: rings and their barriers, and the tiles loaded before the loop or stored
    after it (once per sub-tile: each consumer stages its own rows); Triton's own scratch is checked
    after compiling."""
    total = sum(r.depth * (r.bytes + 2 * BARRIER_BYTES) for r in plan.rings)
    total += sum(b.bytes for b in plan.staging.buffers) + sum(a.bytes for a in plan.asyncs)
    loaded: list[str] = []
    for op in plan.fn.ops:
        if op.name in vocab.TMA_LOADS | {"tt.descriptor_store"}:
            kind = f"{plan.fn.type_of(op.operands[0])}"
            if op.name == "tt.descriptor_store" and not plan.own_stores and kind in loaded:
                loaded.remove(kind)      # stored through a loaded tile's buffer (``kernel.Source.tma_store``)
                continue
            if op.name in vocab.TMA_LOADS:
                loaded.append(kind)
            t = type_info(op.result_types[0] if op.results else plan.fn.type_of(op.operands[-1]))
            total += t.bytes + BARRIER_BYTES
    total += _held_before_loop(plan)
    if plan.reduction is not None:
        red = plan.reduction
        # the buffers replace the scratch Triton gives the conversion made only for the atomic add (uncounted)
        total += (1 if red.split is not None else plan.subtiles) * (red.bytes - (red.rows * red.cols * 4 if red.convert is not None else 0))
        total += 2 * BARRIER_BYTES * (2 if red.split is not None else 1)
    return total + 2 * BARRIER_BYTES * len(plan.consumers)


def _held_before_loop(plan: KernelPlan) -> int:
    """Bytes of the register tiles put in shared memory before the loop for it to read (``ttg.local_alloc`` of a
    value: a dot's B operand loaded before the loop, ``twill.ir.ttgir.hoist_invariant_allocs``), once per consumer and sub-tile; not
    a TMA-loaded tile's (its load's buffer, counted with the load)."""
    inner = {id(o) for o in plan.loop.nested()}
    ops = [o for top in plan.fn.ops for o in (top, *top.nested()) if id(o) not in inner]
    loaded = {r for o in ops if o.name in vocab.TMA_LOADS for r in o.results}
    read = set(plan.loop.operands)
    read |= {o.operands[0] for o in ops if o.name.startswith("ttg.memdesc") and o.operands and set(o.results) & read}
    allocs = [o for o in ops if o.name == vocab.LOCAL_ALLOC and o.operands and o.results and o.operands[0] not in loaded
              and o.results[0] in read]
    subs = [s for p in plan.consumers for s in (p.subtiles or [None])] or [None]
    return sum(TypeInfo("smem", _subtile_shape(plan, type_info(o.result_types[0]).shape, o.operands[0], s),
                        type_info(o.result_types[0]).dtype).bytes for o in allocs for s in subs)


def reduction(fn: Function, body: list[IROp], plan: KernelPlan) -> Reduction | None:
    """The atomic add of a partial sum over the split rows that a reducer partition can take (``Reduction``),
    or None: each sub-tile's partial on its own consumer, a float add with no mask (or an all-true one) to
    addresses the sub-tiles share, written as the iteration's scalar base plus a row-major [rows, cols]
    tile of offsets computed before the loop (``row * stride + column``), the atomic's result unused."""
    rows = plan.rows
    if rows is None or plan.subtiles < 2 or not rows.partial:
        return None
    owner = {x.subtile: p.index for p in plan.consumers for x in p.items}
    if len({owner.get(s) for s in range(plan.subtiles)}) != plan.subtiles or None in {owner.get(s) for s in range(plan.subtiles)}:
        return None
    defined = {r: i for i, op in enumerate(body) for r in op.results}
    outside = {r: op for op in fn.ops for r in op.results}
    readers: dict[str, list[int]] = {}
    for i, op in enumerate(body):
        for v in op.operands:
            readers.setdefault(v, []).append(i)
    found = [i for i, op in enumerate(body) if op.name == "tt.atomic_rmw" and len(op.operands) >= 2
             and re.search(r"tt\.atomic_rmw\s+fadd\b", op.text) and op.operands[1] in rows.partial]
    if len(found) != 1:
        return None
    j = found[0]
    op = body[j]
    if any(readers.get(r) for r in op.results) or (len(op.operands) > 2 and not _all_true(outside.get(op.operands[2]))):
        return None
    value, convert = op.operands[1], None
    d = defined.get(value)
    if d is not None and body[d].name == "ttg.convert_layout" and readers.get(value) == [j]:
        value, convert = body[d].operands[0], d
    ptr = defined.get(op.operands[0])
    if ptr is None or body[ptr].name != "tt.addptr":
        return None
    splat = defined.get(body[ptr].operands[0])
    if splat is None or body[splat].name != "tt.splat" or body[ptr].operands[1] not in outside:
        return None
    tile = _row_major(outside, body[ptr].operands[1])
    if tile is None:
        return None
    n_rows, n_cols, stride = tile
    info = type_info(fn.type_of(op.operands[1]))
    if info.dtype != "f32" or tuple(info.shape) != (n_rows, n_cols) or n_cols % 32:
        return None
    m = re.search(r"tt\.atomic_rmw\s+fadd,\s*(\w+),\s*(\w+)", op.text)
    sem, scope = (m.group(1), m.group(2)) if m else ("relaxed", "gpu")
    skip = _address_only(body, j, {ptr, splat}, defined, readers)
    return Reduction(j, value, convert, frozenset(skip | ({convert} if convert is not None else set())),
                     body[splat].operands[0], stride, n_rows, n_cols, info.dtype, sem, scope)


_SCALES = ("arith.mulf", "arith.divf", "arith.negf")


def column_split(plan: KernelPlan, red: Reduction) -> ColumnSplit | None:
    """Whether ``red``'s partial can be split among the sub-tiles by columns (``ColumnSplit``), and how: every
    consumer owns one sub-tile; the partial is a dot's fresh result (no accumulator carried in) scaled by values
    fixed before the loop; the dot's A operand is staged in shared memory and its B operand is a tile fixed for the
    loop, so that every sub-tile can read the others'; the columns divide evenly into wgmma-sized slices."""
    if len(plan.consumers) != plan.subtiles or any(len(p.subtiles) != 1 for p in plan.consumers):
        return None
    body = plan.body
    defined = {r: i for i, op in enumerate(body) for r in op.results}
    readers: dict[str, list[int]] = {}
    for i, op in enumerate(body):
        for v in op.operands:
            readers.setdefault(v, []).append(i)
    carried = set(plan.loop.body.args) if plan.loop.body is not None else set()
    fixed = lambda v: v not in defined and v not in carried   # noqa: E731 - defined before the loop

    chain, v, reader = [], red.value, red.convert if red.convert is not None else red.op
    while (i := defined.get(v)) is not None and body[i].name not in vocab.DOTS:
        op = body[i]
        inner = [u for u in op.operands if not fixed(u) and not (u in defined and body[defined[u]].name == "tt.splat"
                                                                 and fixed(body[defined[u]].operands[0]))]
        if op.name not in _SCALES or len(inner) != 1 or readers.get(v, []) != [reader]:
            return None
        chain.append(i)
        v, reader = inner[0], i
    if i is None or readers.get(v, []) != [reader]:
        return None
    dot = i
    a, b, c = body[dot].operands[:3]
    width = red.cols // plan.subtiles
    if (dot not in plan.staging.reads or not fixed(b) or not fixed(c) or len(body[dot].operands) > 3
            or red.cols % plan.subtiles or width % 16):
        return None
    return ColumnSplit(dot, plan.staging.reads[dot][0], width, tuple(reversed(chain)))


def producer_share(plan: KernelPlan) -> int | None:
    """How many iterations behind its own loads a one-warp producer can add the lower half of each partial's
    rows, or None. The reducer alone is busy most of each iteration (run 17: 78 %, waiting on its row loads) and
    the consumers wait for it, while the producer, in the same warp group with the same registers, mostly
    waits (93 %); splitting the rows between the two ran the FA backward 2.4-5.5 % faster on the H200 (run 18c).
    The producer adds iteration k - lag after issuing iteration k's loads: a consumer hands off iteration j's
    partial in its body j + stage, which needs the loads of that iteration only, so lag = the consumers' latest
    hand-off stage (at least 1) cannot deadlock. It needs that iteration's base address, so the base must be a
    function of the loop index and of values fixed before the loop (no loop-carried value)."""
    red, prod = plan.reduction, plan.producer
    if red is None or prod is None or prod.warps != 1 or red.rows % 2:
        return None
    body = plan.body
    loop_body = plan.loop.body
    assert loop_body is not None
    carried = set(loop_body.args[1:])
    defined = {r: i for i, op in enumerate(body) for r in op.results}
    todo, seen = [red.base], set()
    while todo:
        v = todo.pop()
        if v in carried:
            return None
        i = defined.get(v)
        if i is None or i in seen:
            continue
        seen.add(i)
        todo += list(body[i].operands)
    stages = [x.stage for p in plan.consumers for x in p.items if x.op == red.op]
    return max([1, *stages])


def _address_only(body: list[IROp], atomic: int, skip: set[int], defined: dict[str, int],
                  readers: dict[str, list[int]]) -> set[int]:
    """``skip`` (the atomic's pointer ops) and the ops computing its addresses that nothing else reads: the
    consumers skip them, the reducer computes the iteration's base itself."""
    address: set[int] = set()
    todo = list(skip)
    while todo:
        i = todo.pop()
        if i not in address:
            address.add(i)
            todo += [defined[v] for v in body[i].operands if v in defined]
    skip = set(skip)
    changed = True
    while changed:
        changed = False
        for i in sorted(address - skip):
            if all(set(readers.get(r, [])) <= skip | {atomic} for r in body[i].results):
                skip.add(i)
                changed = True
    return skip


def _all_true(op: IROp | None) -> bool:
    return op is not None and op.name == "arith.constant" and bool(re.search(r"dense<true>", op.text))


def _row_major(outside: dict[str, IROp], offs: str) -> tuple[int, int, str] | None:
    """(rows, cols, row stride) when ``offs`` is ``broadcast(expand_dims(range(rows), 1) * stride) +
    broadcast(expand_dims(range(cols), 0))`` (either order), computed before the loop; else None."""
    def through(v: str, *names: str) -> str:
        while v in outside and outside[v].name in names:
            v = outside[v].operands[0]
        return v

    add = outside.get(offs)
    if add is None or add.name != "arith.addi":
        return None
    parts = [through(v, "tt.broadcast") for v in add.operands]
    for a, b in (parts, parts[::-1]):
        mul, col = outside.get(a), _range_along(outside, b, 0)
        if mul is None or mul.name != "arith.muli" or col is None:
            continue
        for x, k in (mul.operands, mul.operands[::-1]):
            row = _range_along(outside, x, 1)
            stride = _scalar_of(outside, k)
            if row is not None and stride is not None:
                return row, col, stride
    return None


def _range_along(outside: dict[str, IROp], v: str, axis: int) -> int | None:
    """n when ``v`` is ``expand_dims(make_range(0, n), axis)``."""
    e = outside.get(v)
    if e is None or e.name != "tt.expand_dims" or not re.search(rf"axis = {axis} ", e.text):
        return None
    r = outside.get(e.operands[0])
    m = re.search(r"end = (\d+) : i32, start = 0 : i32", r.text) if r is not None and r.name == "tt.make_range" else None
    return int(m.group(1)) if m else None


def _scalar_of(outside: dict[str, IROp], v: str) -> str | None:
    """A splatted row stride: its literal, or the scalar value's name."""
    e = outside.get(v)
    if e is None:
        return None
    m = re.search(r"dense<(-?\d+)>", e.text) if e.name == "arith.constant" else None
    if m:
        return m.group(1)
    return e.operands[0] if e.name == "tt.splat" else None


def _producer_reads(main: KernelPlan, loop: IROp) -> bool:
    """Whether a value the producer needs (a copy's operands or box coordinates, the scheduled loop's bounds)
    derives from a result of ``loop``, another loop of ``main``'s kernel: followed forward through every op of the
    kernel, a loop's iter_arg from its initial value."""
    seen = set(loop.results)
    ops = [o for top in main.fn.ops for o in (top, *top.nested()) if o is not loop]
    grew = True
    while grew:
        grew = False
        for o in ops:
            new = set(o.results) if seen.intersection(o.operands) else set()
            if o.body is not None:
                new |= {a for a, v in zip(o.body.args[1:], o.body.inits) if v in seen}
            if not new <= seen:
                seen |= new
                grew = True
    wanted = {v for r in main.rings for v in main.body[r.load].operands}
    wanted |= {v for r in main.rings if r.box is not None for v in r.box.values()}
    wanted |= set(loop_bounds(main.loop) or main.loop.operands)
    return bool(wanted & seen)


def sibling(main: KernelPlan, loop: IROp, g: LoopGraph, s: Schedule) -> KernelPlan:
    """The plan of another loop of ``main``'s kernel (causal attention's diagonal block after the blocks
    before it) under its own schedule ``s``, written by ``main``'s partitions: the same consumers, sub-tiles
    and producer with ``main``'s warps and registers, and each tile it streams through the ring of ``main``'s
    that streams the same descriptor's tiles (its slots and phases run on from the loop before)."""
    where = f"{g.name}, {source_where(loop)}"
    plan = plan_kernel(main.fn, loop, g, s, main.machine, main.rows, reduce=False, own_stores=main.own_stores,
                       copy_warps=main.copy_warps, two_ctas=main.two_ctas_allowed, copy_wgmma=main.copy_wgmma,
                       own_tiles=main.own_tiles, prefetch=main.prefetch)
    if main.producer is None and plan.producer is not None and not main.own_tiles:
        # no producer in ``main`` (its loads all in registers: flash-linear-attention's WY backward, whose last loop
        # reads back what the first stored): the sibling's consumers load their own tiles, as Triton's one partition
        plan = plan_kernel(main.fn, loop, g, s, main.machine, main.rows, reduce=False, own_stores=main.own_stores,
                           copy_warps=main.copy_warps, two_ctas=main.two_ctas_allowed, copy_wgmma=main.copy_wgmma,
                           own_tiles=True)
    if main.producer is not None and plan.producer is None and not _producer_reads(main, loop):
        # a loop whose loads its consumers issue and whose results no producer copy's address reads (a fused norm's
        # sum of squares before the K loop of its GEMM): the producer counts its iterations and copies nothing
        at = main.partitions.index(main.producer)
        plan.partitions.insert(at, dataclasses.replace(main.producer, items=()))
    shape = [(p.role, p.group, p.subtiles) for p in plan.partitions]
    if main.producer is not None and plan.producer is None:
        # session 71's sweep: a MoE grouped GEMM finds its expert by a loop over the cumulative offsets before its K
        # loop, and the producer's loads read what that loop found
        raise UnsupportedError("a loop beside the scheduled one that streams no tile, which only the consumers run, "
                               "computes a value the producer's copies need (their addresses or the scheduled loop's "
                               "bounds); a loop of scalars alone, or one over a constexpr bound written with "
                               "tl.static_range, every partition runs", where=where,
                               expected="the producer's copies computed from values the kernel has before that loop",
                               found="a value derived from that loop's results")
    if shape != [(p.role, p.group, p.subtiles) for p in main.partitions]:
        raise UnsupportedError("the Gluon back end writes a kernel's loops in the same partitions", where=where,
                               expected=f"partitions {[(p.role, p.subtiles) for p in main.partitions]}",
                               found=str([(p.role, p.subtiles) for p in plan.partitions]))
    plan.partitions = [dataclasses.replace(p, warps=q.warps, regs=q.regs, need_regs=q.need_regs)
                       for p, q in zip(plan.partitions, main.partitions)]
    free = list(main.rings)
    rings = []
    for r in plan.rings:
        same = next((q for q in free if (q.shape, q.dtype, q.subtile, q.layout, q.readers)
                     == (r.shape, r.dtype, r.subtile, r.layout, r.readers)
                     and (q.copied or q.descriptor == r.descriptor)), None)
        if same is None:
            raise UnsupportedError("the Gluon back end streams a later loop's tiles through the scheduled loop's "
                                   "rings", where=where, expected="tiles of the descriptors (shapes, readers) the "
                                   f"scheduled loop streams: {', '.join(q.name for q in main.rings) or 'none'}",
                                   found=f"{r.name} {list(r.shape)} {r.dtype}")
        free.remove(same)
        if (same.box is None) != (r.box is None) or (same.box and r.box and same.box.transposed != r.box.transposed):
            # one ready barrier and one buffer layout, so one way of copying into the ring
            main.rings = [dataclasses.replace(q, box=None) if q is same else q for q in main.rings]
            r = dataclasses.replace(r, box=None)
            main.decisions.append(f"{same.name} copied with cp.async at every launch, not by TMA: a later loop streams "
                                  "through its ring tiles that are not TMA boxes")
        rings.append(dataclasses.replace(r, name=same.name, depth=same.depth))
    plan.rings = rings
    plan.maxnreg = main.maxnreg
    return plan


def _rank(desc_type: str) -> int:
    """The rank of a descriptor's block (``!tt.tensordesc<tensor<1x1x64x64xf16, ...>>``: 4); 0 where not read."""
    m = re.search(r"tensor<((?:\d+x)+)", desc_type)
    return m.group(1).count("x") if m else 0
