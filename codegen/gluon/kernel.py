"""The generated Gluon module: one function per partition, the kernel entry (shared memory, barriers,
``gl.warp_specialize``) and the host launcher that stands in for the Triton kernel.

Each partition function takes the kernel's arguments and every shared-memory object; it recomputes
the scalars it needs from them (Gluon passes no register tensor to a worker partition) and runs its
slice of the program: a consumer, the code before the loop that its ops need (its own tiles loaded
by TMA), its pipelined loop and the code after it (its rows stored); the producer, the loop's TMA
loads into the rings.
"""
from __future__ import annotations

import ast
import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any

from codegen.gluon.boxes import ITER, Box
from codegen.gluon.compact import COMPACT_HEADROOM, compact_loads
from codegen.gluon.layouts import (DotOperand, Mma, NvmmaShared, SwizzledShared, copy_layout, gl_dtype, parse_layout,
                                   parse_type, per_thread)
from codegen.gluon.ops import program_axis, source_where, tile_copies, translate
from codegen.gluon.partition import LoopWriter, OperandHazard, Shared, Turn, initial, sub_name
from codegen.gluon.protocol import COPY_FLAG, TMA_FLAG
from codegen.gluon.plain import Guard, compound, effectful, entry_effects, guard_lines, held, plain, plain_block
from codegen.gluon.plan import (RED_PAD, AsyncTile, KernelPlan, Partition, Ring, Staged, descriptor_layout,
                                tile_suffix)
from codegen.gluon.start import register_start, start_arrive, start_wait
from codegen.gluon.trips import counted_at_launch
from codegen.gluon.values import Context, Val, base_split_dims, py_name, renamed_def
from twill.errors import UnsupportedError
from twill.ir import vocab
from twill.ir.function import Arg, while_inits
from twill.ir.ttgir import IROp, TypeInfo, closure, loop_bounds, type_info

HEADER = """from triton.experimental import gluon
from triton.experimental.gluon import language as gl
from triton.experimental.gluon.language.nvidia.hopper import (fence_async_shared, mbarrier, tma, warpgroup_mma,
                                                               warpgroup_mma_wait)
"""
COPY_IMPORT = "from triton.experimental.gluon.language.nvidia.ampere import async_copy\n"


def header(plan: KernelPlan) -> str:
    """The generated file's imports: ``async_copy`` where the producer or a consumer copies pointer tiles."""
    return HEADER + (COPY_IMPORT if plan.copies else "")


@dataclass
class Module:
    """The generated source, in parts, and what the launcher needs."""

    plan: KernelPlan
    table: dict[str, str]
    layouts: dict[str, str] = field(default_factory=dict)            # spelled layout -> constant name
    smem: list[tuple[str, str]] = field(default_factory=list)        # (name, allocation expression)
    barriers: list[tuple[str, int | str, int]] = field(default_factory=list)   # (name, arrivals, how many)
    functions: list[str] = field(default_factory=list)
    persistent: bool = False      # one CTA per SM loops over the grid's tiles (``persist``)
    tile_loop: "TileLoop | None" = None   # the kernel's own loop over tiles around the scheduled one (``persist``)
    tile_loads: list["TileLoad"] = field(default_factory=list)   # per-tile loads the producer issues
    own_stores: bool = True       # handoff: a store after the loop has a buffer of its own (else it reuses a
                                  # handed tile's, released to the producer once the store is done)
    tree_reductions: bool = False  # row reductions of a wgmma accumulator halve the registers as a tree first
    trees: list[str] = field(default_factory=list)   # the reductions written so (node, levels), for the docstring
    compact: list[str] = field(default_factory=list)  # pointer loads held in the compact layout, for the docstring
    serpentine: bool = False      # persistent tiles along axis 0 in serpentine order (``serpentine``)
    guards: list[Guard] = field(default_factory=list)   # early returns, taken before the partitions start
    cp_async: bool = True         # pointer tiles copied with cp.async where the launch is aligned (else registers)
    start: bool = False           # the other partitions wait for the first consumer's code before the loop (``start``)

    @property
    def entry_effects(self) -> set[int]:
        """The stores before an early return, written in the kernel before its guards (``plain.entry_effects``); none
        where the guards are taken per tile (a persistent kernel's ``tile_guards``: ``generate`` makes such a kernel
        not persistent)."""
        ops = self.plan.fn.ops
        if self.tile_loop is not None:   # and those before the kernel's own tile loop: once, not once per tile
            before = {i for i, o in enumerate(ops[:self.tile_loop.before]) if effectful(o)}
            return before | (entry_effects(ops, self.guards) if self.guards else set())
        if not self.guards or self.persistent:
            return set()
        return entry_effects(ops, self.guards)

    @property
    def handoff(self) -> bool:
        """Persistent with a producer: the producer loads each tile's tiles too (the consumers' loads
        before their loop), so the next tile's arrive while the consumers finish this one."""
        return self.persistent and self.plan.producer is not None

    def runtime_args(self) -> list[Arg]:
        return [a for a in self.plan.fn.args if a.of is None]

    @property
    def copies(self) -> bool:
        """The producer (or a consumer, ``plan.AsyncTile``) copies pointer tiles: the kernel takes ``COPY_FLAG``
        (cp.async, or the launch's arguments too little aligned for it: loads through registers)."""
        return self.plan.copies

    def flag_params(self) -> list[str]:
        return [f"{f}: gl.constexpr" for f in self.flags()]

    def flags(self) -> list[str]:
        return ([COPY_FLAG] if self.copies else []) + ([TMA_FLAG] if self.plan.boxed else [])

    def box_params(self) -> list[str]:
        """The descriptors of the pointer tiles a TMA copy can load (``plan.Ring.box``), built by the launcher."""
        return list(dict.fromkeys(r.box.name for r in self.plan.boxed if r.box is not None))

    def params(self) -> str:
        return ", ".join([py_name(a.name) for a in self.runtime_args()] + self.grid_params() + self.box_params()
                         + self.flag_params())

    def grid_params(self) -> list[str]:
        """A persistent kernel's extra arguments: the grid the Triton kernel was launched with."""
        return list(GRID_PARAMS) if self.persistent and self.tile_loop is None else []

    @property
    def tile_count(self) -> str:
        """The tiles this program ran before this one: from the tile loop's index where one ``for`` is the nest,
        else counted (``twill_tiles``)."""
        t = self.tile_loop
        if t is None:
            return "twill_tiles" if self.guards and self.persistent else TILE_COUNT   # early-returning tiles uncounted
        return f"({py_name(t.single.iv)} - twill_tile_lb) // twill_tile_step" if t.single else "twill_tiles"

    def shared(self) -> list[str]:
        return [n for n, _ in self.smem] + [n for n, _, _ in self.barriers]

    def signature(self) -> str:
        return ", ".join([py_name(a.name) for a in self.runtime_args()] + self.grid_params() + self.box_params()
                         + self.shared() + self.flag_params())


@dataclass(frozen=True)
class TileLoad:
    """A tile a consumer reads, loaded once per tile before its loop; in a persistent kernel with a
    producer, the producer loads it into ``{key}_buf`` (``{key}_bar`` its arrival) once the consumer
    has released the last tile's copy (``{key}_free``)."""

    key: str
    op: IROp
    sub: int | None
    read_after: bool      # read after the loop too: released after the code after the loop


GRID_PARAMS = ("twill_g0", "twill_g1", "twill_g2")
TILE_COUNT = "twill_tile // gl.num_programs(0)"     # the tiles this program ran before this one
SMEM_OPERAND_REGS = 64      # a loop-invariant mma.sync operand this big a thread is read from shared memory (a wgmma's
                            # A operand from half that: FlagAttention's two 128 x 64 queries, 32 registers each, run 84)


@dataclass(frozen=True)
class Level:
    """One loop of the kernel's own nest around the scheduled loop: an ``scf.for`` (``iv``, ``bounds``) or an
    ``scf.while`` (``cond``: its condition's ops, an ``scf.condition`` last; ``forwards``: (body argument, the
    value the condition hands it)); ``carried``: (argument, initial value, the value an iteration hands on),
    scalars only. Or an ``scf.if`` between two of them (``test``, ``branches``: Unsloth's MoE GEMM skips an
    expert with no rows, ``if m_size > 0``, around its ``while`` over the expert's tiles)."""

    op: IROp
    iv: str | None
    bounds: tuple[str, str, str] | None
    carried: tuple[tuple[str, str, str], ...] = ()
    cond: tuple[IROp, ...] = ()
    forwards: tuple[tuple[str, str], ...] = ()
    test: str | None = None          # an scf.if of the nest: its condition (the inner levels run where it holds)
    branches: tuple[tuple[str, str, str], ...] = ()   # its results: (result, then value, else value), scalars

    @property
    def args(self) -> list[str]:
        return ([self.iv] if self.iv else []) + [c[0] for c in self.carried] + [a for a, _ in self.forwards]

    def needs(self) -> set[str]:
        """The values from outside the level its head reads: bounds, initial values, the condition's operands."""
        inside = {r for o in self.cond for r in o.results} | {c[0] for c in self.carried}
        return (set(self.bounds or ()) | {c[1] for c in self.carried} | ({self.test} if self.test else set())
                | {v for o in self.cond for v in o.operands if v not in inside})


@dataclass(frozen=True)
class TileLoop:
    """The kernel's own loops around the scheduled loop (a persistent kernel's loop over tiles; a grouped GEMM's
    loop over groups and ``while`` over a group's tiles), outermost first."""

    levels: tuple[Level, ...]
    after: tuple[IROp, ...] = ()     # the ops after the nest (its results read as the outermost loop's carried
                                     # arguments), written once after the last tile by the consumer holding them
    tensors: frozenset[str] = frozenset()   # the levels' carried arguments and if results that are tiles (an
                                            # accumulator summed over the nest), held by the one consumer
    before: int = 0                  # how many of the function's ops come before the nest (its stores: ``entry_effects``)
    control_effect: Any = None       # an op writing memory whose result the nest's control reads (an atomic ticket):
                                     # the nest then runs in a kernel of one partition only (``generate._around_loop``)

    @property
    def single(self) -> Level | None:
        """The one ``for`` around the scheduled loop, where that is the whole nest (its tile count is affine)."""
        lv = self.levels[0]
        return lv if len(self.levels) == 1 and lv.iv is not None else None


def tile_level(fn: Any, op: IROp) -> Level:
    """``op`` (an scf.for, scf.while or scf.if of the nest around the scheduled loop) as a ``Level``."""
    if op.name == "scf.if":
        return _if_level(op)
    if op.name == vocab.LOOP:
        assert op.body is not None
        ends = [o for o in op.body.ops if o.name == vocab.YIELD]
        return Level(op, op.body.args[0], _loop_bounds(op),
                     tuple(zip(op.body.args[1:], op.body.inits, ends[-1].operands if ends else ())))
    before, after = op.regions
    ends = [o for o in after.ops if o.name == vocab.YIELD]
    cond = tuple(before.ops)
    if not cond or cond[-1].name != "scf.condition":
        raise UnsupportedError("an scf.while the Gluon back end cannot read", where=source_where(op),
                               expected="a condition region ending in scf.condition", found=op.text[:80])
    inits = while_inits(op)
    return Level(op, None, None, tuple((a, i, y) for (a, i), y in zip(inits, ends[-1].operands if ends else ())),
                 cond, tuple(zip(after.args, cond[-1].operands[1:])))


def _if_level(op: IROp) -> Level:
    """An scf.if of the nest as a ``Level``: its condition and its results' values from each branch; an else
    branch that computes anything is refused in one line (the back end writes the nest's code in the then branch)."""
    m = re.search(r"scf\.if\s+(%[\w$.\-]+(?:#\d+)?)", op.text)
    then = op.regions[0].ops if op.regions else []
    other = op.regions[1].ops if len(op.regions) > 1 else []
    work = [o for o in other if o.name != vocab.YIELD]
    if m is None or work:
        raise UnsupportedError("an scf.if around the kernel's own loops the Gluon back end cannot read",
                               where=source_where(op), expected="a condition, an else branch that only hands on values",
                               found=work[0].name if work else op.text[:80])

    def yielded(ops: list[IROp]) -> tuple[str, ...]:
        ends = [o for o in ops if o.name == vocab.YIELD]
        return ends[-1].operands if ends else ()
    return Level(op, None, None, test=m.group(1),
                 branches=tuple(zip(op.results, yielded(then), yielded(other))))


# a persistent program's tile index as the launch grid's program ids, axis 0 fastest (as the hardware orders CTAs)
PIDS = {0: "twill_tile % twill_g0", 1: "(twill_tile // twill_g0) % twill_g1", 2: "twill_tile // (twill_g0 * twill_g1)"}
# every other pass over axis 0 backwards (``serpentine``)
SERPENTINE = "twill_pid0 = twill_pid0 + ((twill_tile // twill_g0) % 2) * (twill_g0 - 1 - 2 * twill_pid0)"


def persist(lines: list[str], advance: str, tail: tuple[str, ...] = (), src: "Source | None" = None) -> list[str]:
    """A partition's lines for one tile (written with the tile's program ids ``twill_pid<k>`` and the
    launch grid ``twill_g<k>``), made persistent: the program loops over the grid's tiles from its own
    index in steps of the number of programs, axis 0 fastest (as the hardware orders CTAs); ``advance``
    adds a tile's ring iterations to ``twill_base``; ``tail`` runs once after the last tile. The tiles
    before are ``TILE_COUNT``; the turn bodies before follow from both. A kernel with its own tile loop
    (``Module.tile_loop``) keeps it: its bounds computed before it, the tile's lines inside. Where the loops'
    work varies along axis 0 (``Module.serpentine``), every other pass over axis 0 runs backwards."""
    if src is not None and src.mod.tile_loop is not None:
        return _nest_lines(src, lines, advance, tail) + list(tail)
    counted = src is not None and bool(src.mod.guards)
    if counted:            # the kernel's early returns, taken per tile: a tile that returns early runs no iteration
        assert src is not None
        lines, advance = tile_guards(src, lines + [advance, "twill_tiles += 1"]), ""
    text = "\n".join(lines)
    head = ["twill_base = 0"] + (["twill_tiles = 0"] if counted else []) + [
            "for twill_tile in range(gl.program_id(0), twill_g0 * twill_g1 * twill_g2, gl.num_programs(0)):"]
    head += [f"    twill_pid{k} = {e}" for k, e in PIDS.items() if f"twill_pid{k}" in text]   # each one a register
    if src is not None and src.mod.serpentine and "twill_pid0" in text:
        head.append(f"    {SERPENTINE}")
    return head + ["    " + ln for ln in lines + ([advance] if advance else [])] + list(tail)


def tile_guards(src: "Source", body: list[str]) -> list[str]:
    """A persistent kernel's early returns, per tile: each guard's condition computed from the tile's program ids
    (with the code before it that the condition reads), its branch's ops run by the first consumer where it holds
    (SGLang's MoE zeroes the rows of an expert on another rank), and ``body`` (the tile's work, the ring base's
    advance, ``twill_tiles``) where none does. Every partition takes the same branches: they compute the same
    conditions from the same values."""
    mod = src.mod
    ops = mod.plan.fn.ops
    first = src.part.index == mod.plan.consumers[0].index
    g_src = Source(mod, src.part, noted=False)
    done: set[int] = set()
    out: list[str] = []
    pad = ""
    for g in mod.guards:
        inside = {r for o in g.block.ops for r in o.results}
        free = {g.cond} | ({v for o in g.block.ops for v in o.operands if v not in inside} if first else set())
        g_src.lines = []
        for i in sorted(closure(ops[:g.at], set(free)) - done):
            g_src.straight(ops[i], None)
            done.add(i)
        g_src.bind(dataclasses.replace(g.op, operands=tuple(sorted(free))), None)
        cond = g_src.ctx.get(g.cond).expr
        block = plain_block(g.block, g_src.ctx) if first else []
        out += [pad + ln for ln in g_src.lines]
        out.append(f"{pad}if {'not ' if g.negate else ''}{cond}:")
        out += [pad + "    " + ln for ln in (block or ["pass"])]
        out.append(f"{pad}else:")
        pad += "    "
    return out + [pad + ln for ln in body]


def _computed(values: set[str], by: "Source", split: bool = False) -> list[str]:
    """The lines that compute ``values`` from what ``by`` knows (each op once), without adding them to ``by``: the
    ops defining a value needed and not known, and what they need. A known value ends the walk, whatever else its op
    defines (scattermoe's scatter2scatter: the tile loop hands on the scheduled loop's accumulator, which the
    partition knows, and not the loop's pointers, which it does not: the loop had been written again after the
    pipelined one, as written, every load and dot of the tile run twice). ``split``: values an outer loop carries
    split by rows, each op written once per sub-tile it touches (verl's entropy forward: the running max of a
    vocabulary loop around the K loop, computed after it from the K loop's sub-tiled results)."""
    saved, by.lines = by.lines, []
    try:
        known = set(by.ctx.vals)
        if split:
            known |= {k.rsplit("_t", 1)[0] for k in by.ctx.vals if re.search(r"_t\d+$", k)}
        defined = {r: i for i, op in enumerate(by.ops) for r in op.results}
        need: set[int] = set()
        seen: set[str] = set()
        frontier = list(values)
        while frontier:
            v = frontier.pop()
            if v in seen or v not in defined or py_name(v) in known:
                continue
            seen.add(v)
            if defined[v] not in need:
                need.add(defined[v])
                frontier += by.ops[defined[v]].operands
        for i in sorted(need):
            for sub in (by.subs_of(by.ops[i]) if split else [None]):
                by.straight(by.ops[i], sub)
        return by.lines
    finally:
        by.lines = saved


def _nest_lines(src: "Source", lines: list[str], advance: str, tail: tuple[str, ...] = ()) -> list[str]:
    """A partition's lines for one tile (``lines``, ``advance`` after them) inside the kernel's own loops around
    the scheduled loop, as written: each loop's head computed before it (what its bounds, initial values and
    condition read), its carried scalars set before it and handed on at the end of its body, a ``while``'s
    condition computed again there. The innermost loop's carried scalars are written where the partition reads
    them; the outer loops' always (they decide which tiles run)."""
    t = src.mod.tile_loop
    assert t is not None
    pre = Source(src.mod, src.part)
    head, lines = _hoisted_head(src, pre, lines)
    zero = [] if head else ["twill_base = 0"]
    text = "\n".join(lines + list(tail))        # (the code after the nest reads the carried scalars' last values)
    counted = "twill_tiles" in text
    last = len(t.levels) - 1


    def branch(lv: Level, k: int) -> list[str]:
        """An scf.if of the nest: the inner levels under ``if`` (or, innermost, the tile's lines: torchtitan's
        persistent MoE GEMM skips a tile with ``if m_start < M_TOTAL``, the ring base advanced where it runs), the
        if's results handed on from each branch, then known by their names."""
        out = _computed(lv.needs(), pre) + [f"if {pre.ctx.vals[py_name(lv.test)].expr}:"]
        saved = dict(pre.ctx.vals)
        body = level(k + 1)
        by = src if k == last else pre          # the innermost if's then branch is the partition's own code
        branches = _ours(src, lv.branches)
        body += _computed({v for r, v, _ in branches if src.held_as(r)[0][1] is None}, by)
        body += [ln for r, v, _ in branches for ln in _hand_on(src, r, v, by)]
        if k == last:
            body += [advance] + (["twill_tiles += 1"] if counted else [])
        pre.ctx.vals = saved
        other = [ln for r, _, v in branches for ln in _hand_on(src, r, v, pre)]
        out += ["    " + ln for ln in body or ["pass"]] + (["else:"] + ["    " + ln for ln in other] if other else [])
        for r, _, _ in branches:
            pre.ctx.vals[r] = pre.ctx.vals[py_name(r)] = Val(py_name(r), pre.ctx.ttype(r))
            for name in (n for n, sub in src.held_as(r) if sub is not None):
                pre.ctx.vals[name] = Val(name, pre.ctx.ttype(r))
        return out

    def level(k: int) -> list[str]:
        if k > last:
            return lines
        lv = t.levels[k]
        if lv.test is not None:
            return branch(lv, k)
        carried = [c for c in _ours(src, lv.carried) if k < last or lv.iv is None or c[0] in t.tensors
                   or re.search(rf"\b{re.escape(py_name(c[0]))}\b", text)]
        out = _computed(lv.needs(), pre) + [ln for a, init, _ in carried for ln in _initially(src, pre, a, init)]
        if lv.iv is not None and t.single:
            lb, ub, step = (pre.ctx.vals[py_name(v)].expr for v in lv.bounds)
            out += [f"twill_tile_lb = {lb}", f"twill_tile_step = {step}", *zero,
                    f"for {py_name(lv.iv)} in range(twill_tile_lb, {ub}, twill_tile_step):"]
        else:
            out += zero + (["twill_tiles = 0"] if counted else []) if k == 0 else []
            if lv.iv is not None:
                lb, ub, step = (pre.ctx.vals[py_name(v)].expr for v in lv.bounds)
                out.append(f"for {py_name(lv.iv)} in range({lb}, {ub}, {step}):")
            else:
                out += _condition(pre, lv, k) + [f"while twill_go{k}:"]
        saved = dict(pre.ctx.vals)             # what the loop's body defines is not seen after it
        body = [f"{py_name(a)} = {pre.ctx.vals[py_name(v)].expr}" for a, v in lv.forwards if py_name(a) != py_name(v)]
        body += level(k + 1)
        by = src if k == last else pre          # the innermost loop's body is the partition's own
        ends = _computed({y for a, _, y in carried if src.held_as(a)[0][1] is None}, by)
        ends += _computed({y for a, _, y in carried if src.held_as(a)[0][1] is not None}, by, split=True)
        body += ends + [ln for a, _, y in carried for ln in _hand_on(src, a, y, by)]
        if k == last:
            body += [advance] + (["twill_tiles += 1"] if counted else [])
        if lv.iv is None:
            body += _condition(pre, lv, k)
        pre.ctx.vals = saved
        if lv.iv is None:
            for res, (_, v) in zip(lv.op.results, lv.forwards):    # a while's results: its condition's last hand-on
                pre.ctx.vals[res] = pre.ctx.vals[py_name(res)] = pre.ctx.vals[py_name(v)]
        else:
            for res, (a, _, _) in zip(lv.op.results, lv.carried):
                pre.ctx.vals[res] = pre.ctx.vals[py_name(res)] = Val(py_name(a), pre.ctx.ttype(a))
        return out + ["    " + ln for ln in body]
    return head + level(0)


def _hoisted_head(src: "Source", pre: "Source", lines: list[str]) -> tuple[list[str], list[str]]:
    """The code before the nest, once, where it is hoisted (``_hoist``: its values known inside the nest and after
    it, the ring base counted on from it), and the tile's lines; no head where it is not."""
    if src.hoisted is None:
        return [], lines
    split, known = src.hoisted
    pre.ctx.vals.update(known)
    return ["twill_base = 0"] + lines[:split], lines[split:]


def _ours(src: "Source", values: tuple[tuple[str, str, str], ...]) -> list[tuple[str, str, str]]:
    """The nest's carried values (or an if's results) partition ``src`` writes: a tile the nest carries only in the
    consumers (``TileLoop.tensors``)."""
    t = src.mod.tile_loop
    return [c for c in values if src.part.role == "consumer" or t is None or c[0] not in t.tensors]


def _condition(pre: "Source", lv: Level, k: int) -> list[str]:
    """A ``while`` level's condition computed, as ``twill_go<k>``."""
    out = []
    for op in lv.cond[:-1]:
        pre.lines = []
        pre.straight(op, None)
        out += pre.lines
    return out + [f"twill_go{k} = {pre.ctx.vals[py_name(lv.cond[-1].operands[0])].expr}"]


def _hand_on(src: "Source", r: str, v: str, by: "Source") -> list[str]:
    """``r = v`` as ``by`` knows ``v``: per sub-tile for a carried tile split by rows (``Source.held_as``)."""
    return [f"{name} = {(by.ctx.vals.get(sub_name(v, sub)) or by.ctx.vals[py_name(v)]).expr}"
            for name, sub in src.held_as(r)]


def _initially(src: "Source", pre: "Source", a: str, init: str) -> list[str]:
    """Carried value ``a`` set to ``init`` before its level, per sub-tile for a tile split by rows."""
    out = []
    for name, sub in src.held_as(a):
        pre.ctx.subtile = sub
        out.append(f"{name} = {held(pre.ctx, init, a)}")
    pre.ctx.subtile = None
    return out


def _tile_shape(plan: KernelPlan, desc: str) -> list[int]:
    """The block shape a descriptor is launched with: its TTGIR block, cut along the rows when split."""
    t = type_info("tensor<" + plan.fn.type_of(desc).split("tensor<", 1)[1])
    shape = list(t.shape)
    if plan.rows is not None and desc in plan.rows.descriptors:
        shape[plan.rows.descriptors[desc]] //= plan.subtiles
    return shape


class Source:
    """Writes one partition function: straight-line code per sub-tile around a shared ``Context``."""

    def __init__(self, mod: Module, part: Partition, noted: bool = True) -> None:
        self.mod, self.part, self.plan = mod, part, mod.plan
        plan = self.plan
        self.ctx = Context(plan.fn, mod.table, part.warps, int(plan.graph.get("num_warps") or part.warps),
                           plan.rows, None, plan.subtiles, persistent=mod.persistent and mod.tile_loop is None,
                           tree_reductions=mod.tree_reductions, trees=mod.trees, layouts=mod.layouts,
                           split_dim_of_base=base_split_dims(plan.fn, mod.table, plan.rows))
        if part.role == "consumer":
            self._compact_loads(noted)
        if part.role == "producer":
            self._copy_layouts()
        for a in plan.fn.args:
            expr = f"{py_name(a.of[0])}.{a.of[1]}[{a.of[2]}]" if a.of is not None else py_name(a.name)
            self.ctx.vals[py_name(a.name)] = Val(expr, parse_type(a.type, mod.table))
        if mod.tile_loop is not None:        # the kernel's own loops' indices and carried scalars: ``persist`` writes them
            for v in (a for lv in mod.tile_loop.levels for a in lv.args):
                self.ctx.vals[v] = self.ctx.vals[py_name(v)] = Val(py_name(v), self.ctx.ttype(v))
                for name in (n for n, sub in self.held_as(v) if sub is not None):   # a carried tile's rows
                    self.ctx.vals[name] = Val(name, self.ctx.ttype(v))
        self.ops = plan.fn.ops
        self.stored_roots: set[str] = set()      # buffers the straight-line code stored to since its last barrier
        self.loop_at = max(self.ops.index(q.loop) for q in plan.sequence)   # the last loop
        self.lines: list[str] = []
        self.dead_after_loop: list[tuple[str, str]] = []   # (buffer, type): loaded tiles nothing reads after the loop
        self.handed: list[TileLoad] = []    # this consumer's tiles the producer loads (``Module.handoff``)
        self.stored_in: set[str] = set()    # buffers of handed tiles a store after the loop reuses
        self.deferred_store = False         # a store's wait moved to the next tile's first store
        self.hoisted: tuple[int, dict[str, Val]] | None = None   # the lines before the nest, once (``_hoist``)
        self.advanced: dict[str, str] = {}  # the last loop's pointer results this partition does not hold: their
        # values at its end, written where code reads them before the next loop (``_advanced_results``)

    def _compact_loads(self, noted: bool = True) -> None:
        """The consumer's pointer loads held in the compact layout (``codegen.gluon.compact``), noted for the
        docstring unless not ``noted`` (a second writer of the same partition's code: the kernel's early returns)."""
        plan, mod = self.plan, self.mod
        if self.part.regs and self.part.regs - self.part.need_regs >= COMPACT_HEADROOM:
            return                        # registers to spare: no conversion each iteration (``compact``)
        loads = [plan.body[x.op] for x in self.part.items if plan.body[x.op].name == vocab.POINTER_LOAD]
        self.ctx.relayout = compact_loads(plan.fn, mod.table, loads, self.part.warps)
        for op in loads if noted else ():
            v = op.results[0]
            if v in self.ctx.relayout:
                t = parse_type(plan.fn.type_of(v), mod.table)
                was = per_thread(self.ctx.rewarped(t.layout), t.shape)
                mod.compact.append(f"{py_name(v)} (partition {self.part.index}: {per_thread(self.ctx.relayout[v], t.shape)} "
                                   f"register(s) per thread, not {was})")

    def _copy_layouts(self) -> None:
        """The pointer tiles' layouts in the producer, held 16 bytes per thread along their fastest dimension
        (``layouts.copy_layout``), where Triton laid them out otherwise (arguments it did not know aligned):
        everything the producer computes is its copies' addresses and masks, so their layouts change alone.
        A pointer tile a loop carries in another layout (Triton keeps a loop's pointers in the layout a later
        loop's masked loads want as well as in its own loads': a K loop peeled into whole blocks and a tail) is
        carried in the copies' layout too: 64-bit pointers one element per thread cost the producer 128
        registers a tile, and its 88 spilled 2.6 KB (``tests/corpus/tail_loop_gemm.py``, ptxas offline)."""
        plan = self.plan
        carried = [plan.fn.type_of(a) for q in plan.sequence if q.loop.body is not None for a in q.loop.body.args[1:]]
        tiles = {r.load: parse_type(plan.fn.type_of(plan.body[r.load].results[0]), self.mod.table)
                 for r in plan.rings if r.copied}
        for r in plan.rings:
            if not r.copied:
                continue
            t = tiles[r.load]
            new = copy_layout(t.layout, t.shape, TypeInfo("smem", (1,), t.dtype).bytes, self.part.warps)
            if new is not None:
                self.ctx.substitute.setdefault(t.layout, new)
            # a layout another ring's tile is loaded in is that tile's (an FP8 GEMM's A and B tiles, both 128 x 128,
            # K-major in different orders: taken for each other's, both were copied 1 byte at a time)
            theirs = {o.layout for k, o in tiles.items() if k != r.load}
            for c in (parse_type(c, self.mod.table) for c in carried):
                if (c.kind == "tensor" and c.shape == t.shape and c.dtype.startswith("!tt.ptr")
                        and c.layout is not None and c.layout != t.layout and c.layout not in theirs):
                    self.ctx.substitute.setdefault(c.layout, new or t.layout)

    def held_as(self, v: str) -> list[tuple[str, int | None]]:
        """The names a value of the kernel's own nest goes by in this partition, each with its sub-tile: a tile the
        nest carries (``TileLoop.tensors``) split by rows, one per sub-tile this consumer holds; else its name."""
        t = self.mod.tile_loop
        if (t is not None and v in t.tensors and self.part.role == "consumer" and self.plan.rows is not None
                and v in self.plan.rows.dims):
            return [(sub_name(v, s), s) for s in self.part.subtiles if s is not None]
        return [(py_name(v), None)]

    def subs_of(self, op: IROp) -> list[int | None]:
        if self.plan.rows is not None and self.plan.rows.touches(op):
            return [s for s in self.part.subtiles if s is not None] or [None]
        return [None]

    def bind(self, op: IROp, sub: int | None) -> None:
        for v in op.operands:
            val = self.ctx.vals.get(sub_name(v, sub)) or self.ctx.vals.get(py_name(v))
            if val is None and v in self.advanced:
                val = Val(f"{py_name(v)}_end", self.ctx.ttype(v))
                self.lines.append(f"{val.expr} = {self.advanced.pop(v)}")
                self.ctx.vals[py_name(v)] = val
            if val is None:
                raise UnsupportedError("the Gluon back end reached an operand it has not defined",
                                       where=self.plan.graph.name, found=f"{v} (line {op.lineno})")
            self.ctx.vals[v] = val

    def straight(self, op: IROp, sub: int | None) -> None:
        """One op outside the loop for sub-tile ``sub``; its results kept under their sub-tile names. A pointer load
        of a buffer this code stored to since the last barrier waits for the partition's other threads first (a
        value stored in one layout and loaded back in another crosses warps: flash_attn_triton's ``TMP``)."""
        self.ctx.subtile = sub
        self.bind(op, sub)
        root = pointer_root(self.ops, op.operands[0]) if op.name in vocab.STORES | {vocab.POINTER_LOAD} else None
        if op.name == vocab.POINTER_LOAD and root in self.stored_roots:
            self.lines.append("gl.thread_barrier()")
            self.stored_roots.clear()
        elif op.name in vocab.STORES and root is not None:
            self.stored_roots.add(root)
        elif op.name in vocab.BARRIERS:      # the kernel's own tl.debug_barrier orders them already
            self.stored_roots.clear()
        if op.name in vocab.TMA_LOADS:
            self.lines += self.tma_load(op, sub)
            return
        if op.name == "tt.descriptor_store":
            self.lines += self.tma_store(op, sub)
            return
        if op.name == vocab.LOCAL_ALLOC and op.operands and ("tile", op.operands[0], sub) in self.tiles:
            self.ctx.vals[sub_name(op.results[0], sub)] = self.tiles[("tile", op.operands[0], sub)]
            return
        if op.name == "ttg.convert_layout" and self.held_in_smem(op):
            self.lines += self.smem_operand(op, sub)
            return
        lines = plain(op, self.ctx) if compound(op) else translate(op, self.ctx)
        for r in op.results:
            val = self.ctx.vals[r]
            new = sub_name(r, sub)
            if not val.broadcast and val.expr == py_name(r) and new != py_name(r):
                lines = renamed_def(lines, py_name(r), new)
                val = Val(new, val.type)
            self.ctx.vals[new] = val
        self.lines += lines

    @property
    def tiles(self) -> dict:
        if not hasattr(self, "_tiles"):
            self._tiles: dict = {}
        return self._tiles

    def coords(self, op: IROp, sub: int | None) -> list[str]:
        m = re.search(r"\[(.*?)\]", op.text)
        names = [c.strip() for c in m.group(1).split(",")] if m else []
        coords = [self.ctx.vals[c].expr for c in names]
        dim = self.plan.rows.descriptors.get(op.operands[0]) if self.plan.rows is not None and sub is not None else None
        if dim is not None and dim < len(coords):
            coords[dim] = f"{coords[dim]} + {sub * (self.plan.rows.rows // self.plan.subtiles)}"
        return coords

    def held_in_smem(self, op: IROp) -> bool:
        """Whether ``op`` (a ``convert_layout`` before the loop) makes an mma.sync operand of the loop's dots that
        would take at least ``SMEM_OPERAND_REGS`` registers a thread held through it: vLLM's MLA decode holds its
        [16, 512] query as the A operand, replicated in each of the 4 warps that split N (128 registers a thread),
        beside the tiles read from shared memory, and ptxas spilled 552 bytes (run 83: x0.57 of Triton's kernel,
        whose own passes read the operand from shared memory in pieces)."""
        if op not in self.ops[:self.loop_at]:
            return False
        lay = self.ctx.ttype(op.results[0]).layout
        if not isinstance(lay, DotOperand) or not isinstance(lay.parent, Mma) or lay.parent.version[0] not in (2, 3):
            return False
        users = [o for top in self.ops for o in [top, *top.nested()]      # a loop lists what its body reads too
                 if op.results[0] in o.operands and o.body is None and not o.regions]
        if not users or any(o.name not in vocab.DOTS for o in users):
            return False
        t = self.ctx.ttype(op.results[0])
        if lay.parent.version[0] == 3:     # a wgmma reads its A operand from shared memory as well as registers
            regs = TypeInfo("regs", tuple(t.shape), t.dtype).bytes / (32 * lay.parent.warps_per_cta[0]) / 4
            return lay.index == 0 and all(o.operands[0] == op.results[0] for o in users) and len(t.shape) == 2 \
                and t.shape[1] * TypeInfo("regs", (1,), t.dtype).bytes in (32, 64, 128) \
                and not [x for x in self.part.subtiles if x is not None] and regs >= SMEM_OPERAND_REGS // 2
        split = lay.parent.warps_per_cta[0 if lay.index == 0 else 1]   # the warps that share out its rows (A)
        regs = TypeInfo("regs", tuple(t.shape), t.dtype).bytes / (32 * split) / 4
        return regs >= SMEM_OPERAND_REGS

    def smem_operand(self, op: IROp, sub: int | None) -> list[str]:
        """The operand stored once in a shared buffer of its own before the loop, each dot reading it from there
        (``held_in_smem``)."""
        res, src = op.results[0], op.operands[0]
        t = self.ctx.ttype(res)
        name = f"{py_name(sub_name(res, sub))}_sm"
        wgmma = t.layout.parent.version[0] == 3
        if wgmma:        # read by the wgmma from its buffer: written once, fenced for the async proxy
            size = TypeInfo("regs", (1,), t.dtype).bytes
            shared = NvmmaShared(t.shape[1] * size, 8 * size, False).spell()
            self.ctx.vals[sub_name(res, sub)] = Val(name, t, smem=True)
        else:
            shared = SwizzledShared(8, 1, 8, tuple(getattr(self.ctx.ttype(src).layout, "order", (1, 0)))).spell()
            self.ctx.vals[sub_name(res, sub)] = Val(f"{name}.load({self.ctx.layout(t.layout)})", t)
        return [f"{name} = gl.allocate_shared_memory({gl_dtype(t.dtype)}, {list(t.shape)}, {shared}, "
                f"{self.ctx.tensor(src)})  # held here, not in registers: {list(t.shape)} {t.dtype} for the loop's "
                + ("wgmmas" if wgmma else "mma.sync"), "fence_async_shared()" if wgmma else "gl.thread_barrier()"]

    def descriptor(self, desc: str, sub: int | None) -> str:
        """Descriptor ``desc`` as this partition names it: an argument's name, or the name of the one it made
        (``ops.make_descriptor``; per sub-tile where its straight-line code is written per sub-tile)."""
        if any(a.name == desc for a in self.plan.fn.args):
            return py_name(desc)
        val = self.ctx.vals.get(sub_name(desc, sub)) or self.ctx.vals.get(desc) or self.ctx.vals.get(py_name(desc))
        return val.expr if val is not None else py_name(desc)

    def tma_load(self, op: IROp, sub: int | None) -> list[str]:
        """A tile loaded outside the loop: TMA into its own buffer, then wait; by this partition itself,
        or, persistent with a producer (``Module.handoff``), by the producer, so that only the wait is
        here and the release after the loop (``_release``)."""
        desc, res = op.operands[0], op.results[0]
        key = py_name(res) + tile_suffix(self.part.index, sub)
        d = self.descriptor(desc, sub)
        shape = _tile_shape(self.plan, desc)
        t = self.ctx.ttype(res)
        lay = descriptor_layout(self.plan.fn, desc, self.mod.table)
        self.mod.smem.append((f"{key}_buf", f"gl.allocate_shared_memory({gl_dtype(t.dtype)}, {shape}, {lay})"))
        self.mod.barriers.append((f"{key}_bar", 1, 1))
        read_after = self._read_after_loop(res)
        if not read_after and (not self.mod.handoff or not self.mod.own_stores):
            self.dead_after_loop.append((f"{key}_buf", f"{self.plan.fn.type_of(desc)} {shape}"))
        view = f".reshape({shape[len(shape) - len(t.shape):]})" if len(shape) > len(t.shape) else ""   # a rank-4 box's tile
        self.tiles[("tile", res, sub)] = Val(f"{key}_buf{view}", t)
        self.ctx.vals[sub_name(res, sub)] = Val(f"{key}_buf{view}.load({self.ctx.layout(t.layout)})", t)
        bar = f"{key}_bar.index(0)"
        phase = f"({self.mod.tile_count}) & 1" if self.mod.persistent else "0"     # persistent: one phase per tile
        if self.mod.handoff:       # the producer loads it, the next tile's during this one's epilogue
            self.mod.barriers.append((f"{key}_free", 1, 1))
            load = TileLoad(key, op, sub, read_after)
            self.mod.tile_loads.append(load)
            self.handed.append(load)
            return [f"mbarrier.wait({bar}, {phase})"]
        return [f"mbarrier.expect({bar}, {d}.block_type.nbytes)",
                f"tma.async_copy_global_to_shared({d}, [{', '.join(self.coords(op, sub))}], {bar}, {key}_buf)",
                f"mbarrier.wait({bar}, {phase})"]

    def tma_store(self, op: IROp, sub: int | None) -> list[str]:
        """A tile stored after the loop: staged in shared memory (any register layout goes there, so a
        conversion made only for the store is skipped), then one TMA copy."""
        desc, v = op.operands[0], op.operands[-1]
        src = self.unconverted(v, sub)
        key = f"out{len(self.mod.smem)}_c{self.part.index}" + ("" if sub is None else f"_t{sub}")
        d = self.descriptor(desc, sub)
        shape = _tile_shape(self.plan, desc)
        dtype = gl_dtype(self.ctx.ttype(v).dtype)
        kind = f"{self.plan.fn.type_of(desc)} {shape}"
        free = next((b for b in self.dead_after_loop if b[1] == kind), None)
        if free is not None:        # a tile loaded for the loop only: its buffer is free once the loop is done
            self.dead_after_loop.remove(free)
            buf = free[0]
            self.stored_in.add(buf)
        else:
            buf = f"{key}_buf"
            lay = descriptor_layout(self.plan.fn, desc, self.mod.table)
            self.mod.smem.append((buf, f"gl.allocate_shared_memory({dtype}, {shape}, {lay})"))
        copy = [f"{buf}.store({src})", "fence_async_shared()",
                f"tma.async_copy_shared_to_global({d}, [{', '.join(self.coords(op, sub))}], {buf})"]
        if free is not None or not self.mod.persistent:
            return copy + ["tma.store_wait(0)"]
        # persistent, a buffer of its own: the copy runs on into the next tile, whose first store waits
        first, self.deferred_store = not self.deferred_store, True
        return (["tma.store_wait(0)"] if first else []) + copy

    def _read_after_loop(self, res: str) -> bool:
        """Whether the loaded tile ``res`` (or a view or copy of it) is read by an op after the loop."""
        vals = {res}
        for op in self.ops[:self.loop_at]:
            if set(op.operands) & vals:
                vals.update(op.results)
        return any(set(op.operands) & vals for op in self.ops[self.loop_at + 1:])

    def unconverted(self, v: str, sub: int | None) -> str:
        src = next((o for o in self.ops if v in o.results), None)
        if src is not None and src.name == "ttg.convert_layout":
            val = self.ctx.vals.get(sub_name(src.operands[0], sub)) or self.ctx.vals.get(py_name(src.operands[0]))
            if val is not None and not val.broadcast:
                return val.expr
        return self.ctx.vals[v].expr


_POINTER_VIEWS = frozenset({"tt.addptr", "tt.splat", "tt.broadcast", "tt.expand_dims", "ttg.convert_layout",
                            "tt.bitcast"})


def pointer_root(ops: list[IROp], v: str) -> str:
    """The value a pointer ``v`` is computed from through offsets and views: a kernel argument, as a rule."""
    defs = {r: o for o in ops for r in o.results}
    seen: set[str] = set()
    while v in defs and defs[v].name in _POINTER_VIEWS and defs[v].operands and v not in seen:
        seen.add(v)
        v = defs[v].operands[0]
    return v


def trip_count(plan: KernelPlan, lb: str, ub: str, step: str) -> str:
    """The iterations of ``range(lb, ub, step)`` (``int32_count``), clamped at 0 where the lower bound is not 0: a
    program whose start passes its end runs no iteration (FlexAttention's decoding: the key splits past its one
    partial block), and the negative count had moved the ring's base back, to a slot of index -1 (run 102: an
    illegal address)."""
    count = f"({ub} - {lb} + {step} - 1) // {step}"
    if lb != "0":
        known = constant_trips(f"twill_n = {count}")
        count = str(max(known, 0)) if known is not None else f"gl.maximum({count}, 0)"
    return int32_count(plan, count)


def int32_count(plan: KernelPlan, expr: str) -> str:
    """A count of the scheduled loop's iterations (its trip count, an iteration's index) as int32: a loop over i64
    bounds (``K: i64`` in the signature) counts in i64, and a ring's ``.index`` takes int32 ("expected 'index' to be
    int32 but got int64")."""
    iv = plan.loop.body.args[0] if plan.loop.body is not None else None
    return f"gl.cast({expr}, gl.int32)" if iv is not None and plan.fn.type_of(iv) == "i64" else expr


def _loop_bounds(loop: IROp) -> tuple[str, str, str]:
    bounds = loop_bounds(loop)
    if bounds is None:
        raise UnsupportedError("a loop whose bounds the Gluon back end cannot read", found=loop.text[:80])
    return bounds


def serpentine(fn: Any, loops: list[IROp], persistent: bool, tile_loop: TileLoop | None) -> bool:
    """Whether a persistent kernel takes its tiles along axis 0 in serpentine order: forwards on even passes
    over axis 0, backwards on odd ones. Program ``p`` runs tiles ``p, p + P, p + 2P, ...`` (``P`` programs, one
    per SM); where a loop's bounds read axis 0's program id, its trip count, so a tile's work, may rise along
    the axis (causal attention: query block ``m`` runs ``m + 1`` key blocks), and in plain order each program
    steps through the axis ``P mod g0`` tiles at a time, some programs summing light tiles and some heavy ones.
    The kernel ends with its heaviest program: for causal attention (B * H = 128, 128-row blocks, 132 programs)
    the heaviest sums 1.38x / 1.12x / 1.05x the mean at N = 1k / 4k / 16k in plain order, 1.03x / 1.03x / 1.00x
    in serpentine order (``bench/tile_balance.py``), which pairs a program's heavy tiles with light ones while each
    pass covers the same tiles as before (the same operands shared in L2 at a time). Nothing changes where the
    bounds do not read axis 0: a tile's work is the same along it, or varies only from pass to pass."""
    return persistent and tile_loop is None and any(0 in bound_axes(fn, lp) for lp in loops)


def consumer_function(mod: Module, part: Partition, turn: Turn | None) -> str:
    """The source of consumer ``part``: its code before the loop, its pipelined loop, its code after; with
    sibling loops (``KernelPlan.siblings``) each loop pipelined in program order, the code between them
    straight, the rings' slots and phases running on from loop to loop (``twill_base``)."""
    src = Source(mod, part)
    ops, seq = src.ops, mod.plan.sequence
    at = {ops.index(q.loop): q for q in seq}
    after = ops[src.loop_at + 1:]
    post = _post_ops(src, after, part, seq[-1])
    before = _effects_before(src, part, at)
    want = {v for i, _ in post for v in after[i].operands} | {v for i in before for v in ops[i].operands}
    for q in seq:
        want |= _loop_wants(q, q.partitions[part.index])
        want |= {v for k in _read_after(q.loop, ops) for v in (advanced_by(q.loop, k) or ())}
    several = len(seq) > 1
    base = "twill_base" if mod.persistent or several else ""
    if several and not mod.persistent:
        src.lines.append("twill_base = 0")
    straight = closure(ops[:src.loop_at], want)
    _once(src, straight, set(before))
    hoist = _hoist(mod, seq, ops)
    for i in sorted(straight | set(at) | set(before)):
        if hoist and src.hoisted is None and i >= hoist:
            src.hoisted = (len(src.lines), dict(src.ctx.vals))
        q = at.get(i)
        if q is None:
            for sub in (src.subs_of(ops[i]) if i in straight else before[i]):
                src.straight(ops[i], sub)
            continue
        if mod.start and q is seq[0]:
            src.lines += start_arrive() if part.index == mod.plan.consumers[0].index else []
        src.lines += _loop_lines(src, q, q.partitions[part.index], turn, base)
        if q is not seq[-1] and ring_counted(q, seq):
            src.lines.append("twill_base += twill_n")
    late = {id(o) for o in mod.tile_loop.after} if mod.tile_loop is not None else set()
    start = len(src.lines)
    for i, sub in post:
        if id(after[i]) not in late:
            src.straight(after[i], sub)
    src.lines[start:start] = _release(src, after_loop=True)
    src.lines += _release(src, after_loop=False)
    lines = src.lines
    tail = ["tma.store_wait(0)"] if src.deferred_store else []
    if late:                     # the code after the kernel's own tile loop: once, after the last tile, computing
        tail += _after_nest(mod, part, [i for i, o in enumerate(after) if id(o) in late], src.loop_at,
                            src.hoisted[1] if src.hoisted else {})
    if mod.start and part.index != mod.plan.consumers[0].index:
        lines = start_wait() + lines
    if mod.persistent:
        lines = persist(lines, "twill_base += twill_n" if ring_counted(seq[-1], seq) else "", tuple(tail), src)
    return _function(f"consumer_{part.index}", mod, lines)


def _hoist(mod: Module, seq: list[KernelPlan], ops: list[IROp]) -> int:
    """Where the code before the kernel's own tile loop ends (``TileLoop.before``), where it is written once before
    the nest rather than again for every tile: in a kernel of one partition (Liger's group norm: the group's
    statistics loop, then the channel loop around the normalising one, whose pass over the whole group had run again
    for every channel; triton_kernels' grouped reduce, session 91: its K index loads before the tile loop, no loop
    among them, had been loaded again for every tile); 0 where it is not (each partition of a specialised kernel
    writes its own)."""
    t = mod.tile_loop
    if t is None or len(mod.plan.partitions) > 1:
        return 0
    return t.before


def _after_nest(mod: Module, part: Partition, late: list[int], loop_at: int,
                known: dict[str, Val] | None = None) -> list[str]:
    """Consumer ``part``'s code after the kernel's own tile loop (``TileLoop.after``, at ``late`` among the ops after
    the scheduled loop): each store of a carried tile's rows (``Source.held_as``) for the sub-tiles this consumer
    holds, the other stores by the first consumer; what they read computed again from the straight-line code before
    the loop (the tile's values are the loop body's), per sub-tile where the rows split it."""
    end = Source(mod, part, noted=False)
    end.ctx.vals.update(known or {})       # the code before the nest, written once before it (``_hoist``)
    ops, first = end.ops, part.index == mod.plan.consumers[0].index
    after = ops[loop_at + 1:]
    roots = [(i, sub) for i in late if effectful(after[i]) for sub in end.subs_of(after[i])
             if sub is not None or first]
    if not roots:
        return []
    subs = {i: [s for j, s in roots if j == i] for i, _ in roots}
    tail = closure(after, {v for i, _ in roots for v in after[i].operands}) | set(subs)
    for i in sorted(closure(ops[:loop_at], {v for i in tail for v in after[i].operands})):
        if ops[i].results and all(py_name(r) in end.ctx.vals for r in ops[i].results):
            continue
        if ops[i].body is not None or effectful(ops[i]):      # a pure if (RoIAlign's sampling grid) written again
            raise UnsupportedError("the Gluon back end writes the code after the kernel's own tile loop from its "
                                   "results and straight-line values", where=source_where(ops[i]),
                                   found=f"{ops[i].name} read after the tile loop")
        for sub in end.subs_of(ops[i]):
            end.straight(ops[i], sub)
    for i in sorted(tail):
        for sub in subs.get(i) or end.subs_of(after[i]):
            end.straight(after[i], sub)
    return end.lines


def ring_counted(q: KernelPlan, seq: list[KernelPlan]) -> bool:
    """Whether loop ``q``'s iterations advance the rings' base (``twill_base``): where it streams tiles through
    them, or where no loop of the kernel does (its slots then only alternate buffers). A loop beside the scheduled
    one that streams none (a fused norm's sum of squares) is not counted by any partition, so the next loop's slots
    and phases run on from the last loop that used the rings (counted, its first wait passed on a phase no copy had
    completed: run 192, NaN)."""
    return bool(q.rings) or not any(p.rings for p in seq)


def _loop_wants(plan: KernelPlan, part: Partition) -> set[str]:
    """The values from before loop ``plan.loop`` its consumer ``part`` reads: bounds, operands, initial values."""
    body = plan.body
    assert plan.loop.body is not None
    body_defs = {r for op in body for r in op.results} | set(plan.loop.body.args)
    return (set(_loop_bounds(plan.loop)) | {v for x in part.items for v in body[x.op].operands if v not in body_defs}
            | set(plan.loop.body.inits))


def _read_after(loop: IROp, ops: list[IROp]) -> list[int]:
    """The results of ``loop`` (by index) that an op other than a loop reads (a rewind of its pointers)."""
    return [k for k, r in enumerate(loop.results) if any(r in o.operands for o in ops if o.name != vocab.LOOP)]


def advanced_by(loop: IROp, k: int) -> tuple[str, ...] | None:
    """The loop-invariant offsets by which ``loop`` moves its carried pointer ``k`` each iteration (``ptrs +=
    BLOCK_K * stride``: a chain of ``tt.addptr`` from the iter_arg to the value yielded for it), else None."""
    body = loop.body
    assert body is not None
    yld = next((o for o in body.ops if o.name == vocab.YIELD), None)
    if yld is None or k >= len(yld.operands) or k + 1 >= len(body.args):
        return None
    inside = {r: o for o in body.ops for r in o.results}
    v, offsets = yld.operands[k], []
    while v != body.args[k + 1]:
        op = inside.get(v)
        if op is None or op.name != "tt.addptr" or len(op.operands) != 2 or op.operands[1] in inside \
                or op.operands[1] in body.args or len(offsets) > 8:
            return None
        offsets.append(op.operands[1])
        v = op.operands[0]
    return tuple(offsets) if offsets else None


def _advanced_results(src: Source, plan: KernelPlan) -> dict[str, str]:
    """After loop ``plan.loop``, its pointer results this partition does not hold (the loads that advance them are
    another partition's, or written as offsets from the loop's index), each as the initial pointer advanced by the
    trip count times the loop's offsets, for ``Source.bind`` to write where code before the next loop reads one
    (verl's entropy backward rewinds its first K loop's pointers for a second: ``ptrs -= hidden_size * stride``)."""
    assert plan.loop.body is not None
    out = {}
    for k in _read_after(plan.loop, src.ops):
        res, steps = plan.loop.results[k], advanced_by(plan.loop, k)
        vals = [src.ctx.vals.get(py_name(v)) for v in (plan.loop.body.inits[k], *(steps or ()))]
        if py_name(res) not in src.ctx.vals and steps is not None and all(x is not None for x in vals):
            out[res] = f"{vals[0].expr} + ({' + '.join(x.expr for x in vals[1:])}) * twill_n"   # type: ignore[union-attr]
    return out


def _loop_lines(src: Source, plan: KernelPlan, part: Partition, turn: Turn | None, base: str) -> list[str]:
    """Loop ``plan.loop`` pipelined for consumer ``part`` (``base``: the ring iterations before it); its results
    are then this partition's values of the loop's results."""
    main, src.plan, src.advanced = src.plan, plan, {}       # the last loop's ends: its twill_n is written over
    try:
        bounds = tuple(src.ctx.vals[py_name(v)].expr for v in _loop_bounds(plan.loop))
        lines = _pipelined(src, part, Shared(bounds, base), turn)   # type: ignore[arg-type]
        results = lines.pop()
        for k, res in enumerate(plan.loop.results):
            for sub in list(part.subtiles) or [None]:
                name = results.get((k, sub))
                if name is not None:
                    src.ctx.vals[sub_name(res, sub)] = Val(name, src.ctx.ttype(res))
        src.advanced = _advanced_results(src, plan)
    finally:
        src.plan = main
    return lines


def _release(src: Source, after_loop: bool) -> list[str]:
    """The arrivals that hand this consumer's per-tile tiles back to the producer: right after the loop
    (every dot retired) for a tile only the loop reads, after the code after the loop for a tile read
    there or whose buffer a store there reuses (its copy waited for)."""
    return [f"mbarrier.arrive({t.key}_free.index(0))" for t in src.handed
            if (t.read_after or f"{t.key}_buf" in src.stored_in) != after_loop]


def _post_ops(src: Source, after: list[IROp], part: Partition, plan: KernelPlan,
              reads_loop: bool = True) -> list[tuple[int, int | None]]:
    """Ops after the (last) loop this consumer runs, per sub-tile: each side effect (a store) whose loop results
    (of that sub-tile, of ``plan``'s loop; none where not ``reads_loop``) this consumer computes, all of them (a
    store of several consumers' values would need their registers here), or, reading none, the first
    consumer's; and what they need."""
    owners = {q.index: _owned_results(plan, q) for q in plan.consumers}
    first = min(owners)
    results = set(plan.loop.results) if reads_loop else set()
    subs = [None] if plan.rows is None else list(range(plan.subtiles))
    roots: list[tuple[int, int | None]] = []
    for i, op in enumerate(after):
        if not effectful(op):
            continue
        deps = {v for j in closure(after, set(op.operands)) | {i} for v in after[j].operands} & results
        for sub in (subs if plan.rows is not None and plan.rows.touches(op) else [None]):
            need = {(r, sub if _split(plan, r) else None) for r in deps}
            if (need and need <= owners[part.index]) or (not need and part.index == first):
                roots.append((i, sub))
            elif need and not any(need <= o for o in owners.values()):
                raise UnsupportedError("a store after the loop reads values of several partitions",
                                       where=f"{plan.graph.name} (line {op.loc.line})", found=op.name)
    out = set(roots)
    for i, sub in roots:
        for j in closure(after, set(after[i].operands)):
            out.add((j, sub if plan.rows is not None and plan.rows.touches(after[j]) else None))
    return sorted(out, key=lambda x: (x[0], -1 if x[1] is None else x[1]))


def _effects_before(src: Source, part: Partition, at: dict[int, KernelPlan]) -> dict[int, list[int | None]]:
    """The stores (and ops holding stores: an ``if``, a loop written as it runs) before the last loop that
    this consumer writes, each with its sub-tiles: between two loops by ``_post_ops``' rule for the loop
    before them, before the first by the first consumer."""
    ops, out = src.ops, {}
    edges = sorted(at)
    entry = src.mod.entry_effects            # written by the kernel before its early returns
    for start, end in zip([-1] + edges, edges):
        seg = ops[start + 1:end]
        if not any(effectful(o) for o in seg):
            continue
        plan = at[start] if start >= 0 else None
        for j, sub in _post_ops(src, seg, part, plan or src.plan, reads_loop=plan is not None):
            if effectful(seg[j]) and start + 1 + j not in entry:
                out.setdefault(start + 1 + j, []).append(sub)
    return out


def _split(plan: KernelPlan, value: str) -> bool:
    return plan.rows is not None and (value in plan.rows.dims or value in plan.rows.partial)


def _owned_results(plan: KernelPlan, part: Partition) -> set[tuple[str, int | None]]:
    """The loop results (``%loop#k``, sub-tile) whose last value this consumer computes (none when the loop
    carries no value: its body ends without a yield)."""
    yld = next((o for o in plan.body if o.name == vocab.YIELD), None)
    if yld is None:
        return set()
    defined = {r: i for i, op in enumerate(plan.body) for r in op.results}
    mine = {(x.op, x.subtile) for x in part.items}
    return {(res, sub) for res, y in zip(plan.loop.results, yld.operands) for op, sub in mine
            if op == defined.get(y)}


def _pipelined(src: Source, part: Partition, shared: Shared, turn: Turn | None) -> list:
    """The loop's lines and, last, the map from (loop result, sub-tile) to the name holding it after the loop.
    A loop may run no iteration (a causal kernel's first query block has no key block before the diagonal):
    a one-stage loop has no prologue, so it runs as it is, its last releases predicated on an iteration
    having run; a two-stage loop whose trip count varies between programs (``trip_count_varies``) runs
    pipelined where it has an iteration and gives its initial values where it has none (the ``if`` costs the
    FA forward 4 %, run 20b, so a loop whose bounds are the launch's arguments alone, the same for every
    program, runs at least one iteration). Deeper pipelines, and loops whose consumers take turns on the
    tensor core (every consumer takes its turns in every loop), run at least ``least_trips`` iterations: the
    only ways found to guard them (an unpipelined copy of the loop for short ones) made ptxas serialise the
    FA backward's wgmmas."""
    stages = max(p.stages for p in src.plan.consumers)
    lines, results = _written(src, part, shared, turn, stages)
    n = constant_trips(lines[0])
    if stages > 2 and alone(src.mod.plan):
        short = _as_written(src, results)
        if short is not None and n is not None:     # a trip count the kernel's constants fix: one branch, not a dead
            # one (the other branch's loads, dead, fail Triton 3.6's lowering: an assertion; Liger's GEGLU, n_cols
            # a constexpr)
            return (lines if n >= stages - 1 else [lines[0]] + short) + [results]
        if short is not None:
            return ([lines[0], _trips_at_least(stages - 1)] + ["    " + ln for ln in lines[1:]] + ["else:"]
                    + ["    " + ln for ln in short] + [results])
        # no unpipelined copy for a short loop: it must fill the prologue (said in the decisions, checked so)
        counted = counted_at_launch(src.mod.plan, src.plan.loop)
        if n is None and counted is None:
            raise UnsupportedError("a loop the launch cannot count needs an unpipelined copy for short trips",
                                   where=src.plan.graph.name, expected="ops the one-stage writer writes",
                                   found=f"{stages} stages and an op it cannot write (the loop must run at least "
                                         f"{stages - 1} iterations, and its bounds are the kernel's own values)")
        src.mod.plan.least_trips = max(src.mod.plan.least_trips, stages - 1)
        if n is None:
            src.mod.plan.launch_checks.append((counted, stages - 1))
    if stages != 2 or least_trips(stages, turn is not None, unchecked_trips(src.plan.fn, src.mod.plan, src.plan.loop)):
        return lines + [results]
    other = [f"{name} = {_initial(src, part, k, sub)}" for (k, sub), name in results.items() if name]
    if n is not None:
        return (lines if n >= 1 else [lines[0]] + other) + [results]
    return ([lines[0], _trips_at_least(1)] + ["    " + ln for ln in lines[1:]]
            + (["else:"] + ["    " + ln for ln in other] if other else []) + [results])   # a loop carrying nothing


def constant_trips(line: str) -> int | None:
    """The trip count ``twill_n = EXPR`` sets where EXPR is integer constants alone (the loop's bounds constexprs),
    else None."""
    m = re.fullmatch(r"\s*twill_n = (.+)", line)
    if m is None:
        return None
    try:
        tree = ast.parse(m.group(1), mode="eval")
    except SyntaxError:
        return None
    ops = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
           ast.FloorDiv: lambda a, b: a // b if b else None}

    def ev(node: Any) -> int | None:
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            v = ev(node.operand)
            return None if v is None else -v
        if isinstance(node, ast.BinOp) and type(node.op) in ops:
            a, b = ev(node.left), ev(node.right)
            return None if a is None or b is None else ops[type(node.op)](a, b)
        return None
    return ev(tree.body)


def _trips_at_least(k: int) -> str:
    """The ``if`` choosing the pipelined loop where it runs ``k`` iterations or more. Its condition also reads the
    program id, so that Triton cannot fold it: an integer argument equal to 1 reaches the kernel as a constant (the
    JIT specialises it), Gluon folds the trip count once it inlines the partition, and a branch left dead with loads
    in it fails Triton 3.6's lowering (an assertion in the axis analysis of the dead loads: the reversed recurrence
    at T = 1, run 36)."""
    return f"if (twill_n >= {k}) | (gl.program_id(0) < 0):"


def least_trips(stages: int, turns: bool = False, varies: bool = True, lone: bool = False) -> int:
    """The fewest iterations a loop of ``stages`` runs correctly as ``_pipelined`` writes it (``varies``: its trip
    count may differ between programs; ``lone``: one partition, no barrier, so a short loop runs as written)."""
    if lone and stages > 2 and not turns:
        return 0
    return max(1, stages - 1) if turns or stages > 2 or (stages == 2 and not varies) else 0


def alone(plan: KernelPlan) -> bool:
    """Whether the kernel is one partition of its own loads (no producer, no barrier to keep in step with)."""
    return len(plan.partitions) == 1 and not plan.rings and plan.reduction is None


def _as_written(src: Source, results: dict) -> list[str] | None:
    """The loop as the kernel writes it, one iteration after another (``plain``), for a one-partition kernel's
    loop shorter than its pipeline's prologue; its values renamed (``_w``) so that none meets a pipelined value
    of the same name and another type, the pipelined loop's result names assigned at its end. None where
    ``plain`` cannot write one of its ops (then the loop must run ``least_trips`` iterations)."""
    ctx = src.ctx
    saved = dict(ctx.vals)
    try:
        lines = plain(src.plan.loop, ctx)
        ends = {key: ctx.vals[res].expr for key in results for res in [src.plan.loop.results[key[0]]]
                if results[key] and key[1] is None}
    except UnsupportedError:
        return None
    finally:
        ctx.vals = saved
    if len(ends) != sum(1 for n in results.values() if n):
        return None
    mine = {n.strip() for ln in lines for m in [re.match(r"\s*(?:for\s+)?(\w+(?:\s*,\s*\w+)*)(?:\s*=(?!=)|\s+in\b)", ln)]
            if m for n in m.group(1).split(",")}      # a tuple's targets too (``a, b = gl.split(x)``)
    def w(text: str) -> str:
        return renamed(text, mine)
    return [w(ln) for ln in lines] + [f"{results[key]} = {w(e)}" for key, e in ends.items()]


def renamed(text: str, names: set[str], suffix: str = "_w") -> str:
    """``text`` with each of ``names`` that is a value's name suffixed, not an attribute's (``x.mask``) nor a keyword
    argument's (``mask=mask``: Liger's GEGLU, whose mask is a value named ``mask``, had its loads written
    ``gl.load(p, mask_w=mask_w)``). A tuple's second target (``a, b = gl.split(x)``: lmdeploy's bitonic top-k,
    session 91) is a value, not a keyword: a keyword stands inside a call's parentheses.

    >>> renamed("lo, hi = gl.split(x)", {"lo", "hi", "x"})
    'lo_w, hi_w = gl.split(x_w)'
    >>> renamed("y = gl.load(p, mask=mask)", {"y", "mask", "p"})
    'y_w = gl.load(p_w, mask=mask_w)'
    """
    if not names:
        return text
    pattern = re.compile(r"(?<![\w.])(" + "|".join(sorted(map(re.escape, names), key=len, reverse=True)) + r")\b")

    def keyword(m: re.Match) -> bool:
        before = m.string[:m.start()]
        line = before[before.rfind("\n") + 1:]
        return (re.match(r"\s*=(?!=)", m.string[m.end():]) is not None
                and re.search(r"[(,]\s*$", before) is not None and line.count("(") > line.count(")"))
    return pattern.sub(lambda m: m.group(0) if keyword(m) else m.group(1) + suffix, text)


def unchecked_trips(fn: Any, main: KernelPlan, loop: IROp) -> bool:
    """Whether a short trip count of ``loop`` reaches the kernel unchecked: it varies between programs
    (``trip_count_varies``) or the launch cannot evaluate it (``trips.counted_at_launch``: a length computed in the
    kernel, a loop inside the kernel's own tile loop); then a two-stage loop guards its pipeline itself (aiter's
    blocked RMSNorm, session 90: a row of one block ran its loops' prologue on block 0 and summed it twice)."""
    return trip_count_varies(fn, loop) or counted_at_launch(main, loop) is None


def trip_count_varies(fn: Any, loop: IROp) -> bool:
    """Whether ``loop``'s trip count may differ between the programs of one launch: its bounds read a program
    id, the kernel's tile index or an earlier loop's result (causal attention's blocks before the diagonal),
    not the launch's arguments alone (then a launch with work runs every loop at least once)."""
    bounds = set(_loop_bounds(loop)[:2])
    ops = [fn.ops[i] for i in closure(fn.ops, bounds)]
    known = {r for o in ops for r in o.results} | {a.name for a in fn.args}
    leaves = bounds | {v for o in ops for v in o.operands}
    return any(o.name in ("tt.get_program_id", vocab.LOOP) for o in ops) or bool(leaves - known)  # tile index


def bound_axes(fn: Any, loop: IROp) -> set[int]:
    """The launch grid's axes whose program id ``loop``'s bounds read (0: x, the fastest in ``persist``)."""
    ops = [fn.ops[i] for i in closure(fn.ops, set(_loop_bounds(loop)[:2]))]
    return {program_axis(o) for o in ops if o.name == "tt.get_program_id"}


def _initial(src: Source, part: Partition, k: int, sub: int | None) -> str:
    """Loop result ``k``'s initial value (sub-tile ``sub``) in the layout the loop carries it in."""
    body = src.plan.loop.body
    assert body is not None
    yld = next(o for o in src.plan.body if o.name == vocab.YIELD)
    return initial(src.ctx, body.inits[k], yld.operands[k], sub)


def ring_allocation(a: AsyncTile) -> str:
    return f"gl.allocate_shared_memory({gl_dtype(a.dtype)}, {[a.depth] + list(a.shape)}, {a.shared})"


def local_buffers(plan: KernelPlan) -> bool:
    """Whether each loop's own buffers (its copies' rings, ``AsyncTile``, and its staged register tiles, ``Staged``)
    are allocated just before it, so that sibling loops share their bytes: a kernel of one partition. Allocated once
    for the kernel, tutorial 06's backward's four loops' rings could share no byte with each other nor with Triton's
    scratch (152 KiB, one CTA an SM); FLA's WY backward, three loops, compiled to 120 KB for 49 KB planned."""
    return alone(plan)


def _staged_buffers(plan: KernelPlan) -> list[tuple[str, str]]:
    """Each loop's staged register tiles (a later loop's own too), allocated once for the kernel: a loop's buffer
    takes the bytes of an earlier loop's of the same consumer, sub-tile, type, shape and layout (the loops run one
    after another, each draining its wgmmas before the next starts), named again, not allocated again. Liger's
    int8 x int2 GEMM: its K loop written four times, once per 2-bit slice, each staging its dequantised B tile;
    four [2, 64, 256] int8 buffers took the kernel past the SM's shared memory (286780 bytes compiled)."""
    out: list[tuple[str, str]] = []
    slots: dict[tuple, list[str]] = {}
    named: set[str] = set()
    for q in plan.sequence:
        used: dict[tuple, int] = {}
        for b in q.staging.buffers:
            if b.name in named:
                continue
            named.add(b.name)
            key = (b.part, b.subtile, b.dtype, tuple(b.shape), b.layout, b.depth)
            k = used[key] = used.get(key, 0) + 1
            free = slots.setdefault(key, [])
            if k <= len(free):
                out.append((b.name, free[k - 1]))
            else:
                free.append(b.name)
                out.append((b.name, staged_allocation(b)))
    return out


def staged_allocation(b: Staged) -> str:
    dtype, shape = gl_dtype(b.dtype), ([b.depth] if b.depth > 1 else []) + list(b.shape)
    layout = b.layout or f"gl.NVMMASharedLayout.get_default_for({shape}, {dtype})"
    return f"gl.allocate_shared_memory({dtype}, {shape}, {layout})"


def _written(src: Source, part: Partition, shared: Shared, turn: Turn | None, stages: int) -> tuple[list[str], dict]:
    """The pipelined loop of ``part`` in ``stages`` bodies (dry run first, so every body rotates the same
    names): its lines, the first the trip count, and the map from (loop result, sub-tile) to the name
    holding it after the loop."""
    plan = src.plan

    def write(ages: tuple[dict[str, int], dict[str, int]], steady_end: Any) -> tuple[list[str], dict, Any, Any]:
        ctx = src.ctx
        saved = dict(ctx.vals)
        lw = LoopWriter(plan, part, ctx, shared, turn if len(plan.consumers) > 1 else None, stages)
        lw.empty_loop = turn is None and stages == 1        # the loop may run no iteration
        lw.max_age.update(ages[0])
        lw.result_age.update(ages[1])
        lw.steady_end = steady_end
        lw.retire_in_body = hazards
        S = lw.S
        lb, ub, step = shared.bounds
        lines = [f"twill_n = {trip_count(plan, lb, ub, step)}"]
        if local_buffers(src.mod.plan):
            lines += [f"{a.name} = {ring_allocation(a)}" for a in plan.asyncs if a.part == part.index]
            lines += [f"{b.name} = {staged_allocation(b)}" for b in plan.staging.buffers if b.part == part.index]
        defined: set[str] = set()
        lines += _assign(lw.inits_before(-1), defined) + lw.rotations(defined)
        for b in range(S - 1):
            lines += _assign(lw.inits_before(b), defined)
            lines += _assign(lw.body(str(b), set(range(b + 1)), False, defined), defined)
        lines += lw.settle()
        steady = lw.body("twill_b", set(range(S)), True, None)
        lines += [f"for twill_b in range({S - 1}, twill_n):"] + ["    " + ln for ln in steady]
        for e in range(1, S):
            lines += lw.body(f"(twill_n - 1 + {e})", set(range(e, S)), False, None, drain=e)
        results = {(k, sub): lw.result(k, sub) for k in range(len(plan.loop.results))
                   for sub in (list(part.subtiles) or [None])}
        lines += lw.finish({n for n in results.values() if n})
        ctx.vals = {**saved, **{k: v for k, v in ctx.vals.items() if k not in saved}}
        return lines, results, (dict(lw.max_age), dict(lw.result_age)), lw.steady_end

    hazards: set[tuple[int, int | None]] = set()
    while True:       # a dot whose register operand the next body writes before retiring it: retired in its body
        try:
            _, _, ages, steady_end = write(({}, {}), None)
            lines, results, _, _ = write(ages, steady_end)
            return lines, results
        except OperandHazard as h:
            if h.item in hazards:
                raise UnsupportedError("the Gluon back end cannot keep a dot's register operand until it retires",
                                       where=plan.graph.name, found=f"op {h.item}") from None
            hazards.add(h.item)


def _assign(lines: list[str], defined: set[str]) -> list[str]:
    for ln in lines:
        m = re.match(r"^([\w, ]+?) = ", ln)
        if m:
            defined.update(n.strip() for n in m.group(1).split(","))
    return lines


SIGNATURE = "__SIGNATURE__"     # every partition takes the same arguments: filled in once all are known


def _function(name: str, mod: Module, lines: list[str]) -> str:
    head = ["@gluon.jit", f"def {name}({SIGNATURE}):"]
    return "\n".join(head + ["    " + ln for ln in lines]) + "\n"


@dataclass
class ScalarLoop:
    """A worker partition's own loop over the scheduled loop's iterations (not pipelined): the scalars its
    work needs each iteration (``want_in``: values of the loop body), sliced from the body with the
    loop-carried scalars they read, and what that needs before the loop."""

    need: set[int]
    used_args: list[str]
    carried: dict[str, str]
    outside: set[str]


def scalar_loop(plan: KernelPlan, want_in: set[str]) -> ScalarLoop:
    body, loop_body = plan.body, plan.loop.body
    assert loop_body is not None
    args = loop_body.args[1:]
    carried = dict(zip(args, next((o.operands for o in body if o.name == vocab.YIELD), ())))
    need = closure(body, want_in)
    changed = True
    while changed:       # loop-carried scalars the coordinates read: their updates too
        changed = False
        used_args = {v for i in need for v in body[i].operands if v in carried} | (want_in & set(carried))
        more = closure(body, {carried[a] for a in used_args}) - need
        if more:
            need |= more
            changed = True
    used_args = sorted({v for i in need for v in body[i].operands if v in carried} | (want_in & set(carried)))
    lb, ub, step = _loop_bounds(plan.loop)
    outside = {v for i in need for v in body[i].operands} | {lb, ub, step} | want_in
    outside |= {loop_body.inits[args.index(a)] for a in used_args}
    return ScalarLoop(need, used_args, carried, outside)


def _worker_loop(src: Source, sl: ScalarLoop, head: Any, work: Any, name: str, tail: Any = None) -> str:
    """A worker partition's function: what its loop needs before it, ``head(src)``, then the loop over the
    scheduled loop's iterations (``twill_k`` the iteration's index over the program's tiles) running
    ``work(inner)`` for the lines of one iteration, then ``tail(src, n)`` (``n`` the loop's trip count)."""
    return _worker_loops(src, [(src.plan, sl, work)], head, name, tail)


def _once(src: Source, straight: set[int], mine: set[int]) -> None:
    """Refuse in one line a partition's code before its loop that would run an atomic which another partition runs
    (``mine``: those this one writes; the kernel's entry writes its own): an atomic whose result the
    partition needs (a tile taken from a ticket counter, ``tile = tl.atomic_add(counter, 1)``) would run once per
    partition, each taking a ticket, the producer loading one tile while the consumer computes another. A store
    written again by another partition writes the same values (a norm's residual, stored in a loop before the
    scheduled one whose sums the partitions need): not refused."""
    if src.part.index == src.mod.plan.consumers[0].index:
        return                                  # the first consumer writes the code before the loop's effects
    entry = src.mod.entry_effects
    twice = [i for i in sorted(straight) if _atomic(src.ops[i]) and i not in mine and i not in entry]
    if twice:
        op = src.ops[twice[0]]
        raise UnsupportedError("the Gluon back end runs an atomic before the loop once, in the first consumer, so no "
                               "other partition may need its result", where=f"{src.plan.graph.name}, {source_where(op)}",
                               found=f"{op.name} whose result partition {src.part.index} needs too")


def _atomic(op: IROp) -> bool:
    """Whether ``op`` (or an op in its regions) is an atomic: run twice, it does not write the same memory twice."""
    if op.name in ("tt.atomic_rmw", "tt.atomic_cas"):
        return True
    blocks = ((op.body,) if op.body is not None else ()) + op.regions
    return any(_atomic(o) for b in blocks for o in b.ops)


def _worker_loops(src: Source, loops: list[tuple[KernelPlan, ScalarLoop, Any]], head: Any, name: str,
                  tail: Any = None) -> str:
    """``_worker_loop`` over each of the kernel's loops in program order (``KernelPlan.sequence``): the
    straight code each needs before it, ``head`` before the first, ``twill_base`` counting the iterations
    of the loops (and tiles) before."""
    mod, ops = src.mod, src.ops
    at = {ops.index(q.loop): (q, sl, work) for q, sl, work in loops}
    need = closure(ops[:max(at)], set().union(*(sl.outside for _, sl, _ in loops)), set(at))
    _once(src, need - set(at), set())
    several = len(loops) > 1
    if several and not mod.persistent:
        src.lines.append("twill_base = 0")
    first, n = min(at), ""
    for i in sorted(need | set(at)):
        if i not in at:
            if ops[i].name not in vocab.TMA_LOADS:
                src.straight(ops[i], None)
            continue
        if i == first:
            src.lines += head(src)
        if n:
            src.lines.append(f"twill_base += {n}")
        q, sl, work = at[i]
        n = _scalar_loop_lines(src, q, sl, work, mod.persistent or several)
        if not ring_counted(q, [p for p, _, _ in loops]):
            n = ""
        elif mod.tile_loop is not None:   # the trip count kept before the kernel's own loops hand on their scalars (the
            # bounds it reads): stream-K's `start_iter = end_iter` came first, its ring base never advanced (run 68)
            src.lines.append(f"twill_trips = {n}")
            n = "twill_trips"
    if tail is not None:
        src.lines += tail(src, n)
    lines = (start_wait() if mod.start else []) + src.lines
    if mod.persistent:
        lines = persist(lines, f"twill_base += {n}" if n else "", (), src)
    return _function(name, mod, lines)


def _scalar_loop_lines(src: Source, plan: KernelPlan, sl: ScalarLoop, work: Any, based: bool) -> str:
    """Loop ``plan.loop`` as a worker runs it, appended to ``src.lines``: its carried scalars, then per
    iteration the scalars it needs and ``work(inner)``; ``twill_k`` the ring iteration (from ``twill_base``
    where ``based``). Returns the loop's trip count."""
    loop_body = plan.loop.body
    assert loop_body is not None
    iv, args = loop_body.args[0], loop_body.args[1:]
    lbe, ube, ste = (src.ctx.vals[py_name(v)].expr for v in _loop_bounds(plan.loop))
    for a in sl.used_args:
        src.lines.append(f"{py_name(a)} = {src.ctx.vals[py_name(loop_body.inits[args.index(a)])].expr}")
        src.ctx.vals[py_name(a)] = Val(py_name(a), src.ctx.ttype(a))
    src.lines.append(f"for {py_name(iv)} in range({lbe}, {ube}, {ste}):")
    inner = Source.__new__(Source)
    inner.__dict__.update(src.__dict__)
    inner.plan = plan
    index = int32_count(plan, f"({py_name(iv)} - {lbe}) // {ste}")
    inner.lines = [f"twill_k = {'twill_base + ' if based else ''}{index}"]
    src.ctx.vals[py_name(iv)] = Val(py_name(iv), src.ctx.ttype(iv))
    for i in sorted(sl.need):
        if plan.body[i].name not in vocab.TMA_LOADS:
            inner.straight(plan.body[i], None)
    inner.lines += work(inner)
    for a in sl.used_args:
        inner.lines.append(f"{py_name(a)} = {inner.ctx.vals[py_name(sl.carried[a])].expr}")
    if len(inner.lines) == 1 and not sl.used_args:     # nothing to do in it (a producer beside a loop that streams no
        src.lines.pop()                                 # tile): only its trip count, which the loops after it count from
    else:
        src.lines += ["    " + ln for ln in inner.lines]
    for a, res in zip(args, plan.loop.results):     # the carried scalars' last values: the loop's results
        if a in sl.used_args:
            src.ctx.vals[res] = src.ctx.vals[py_name(res)] = Val(py_name(a), src.ctx.ttype(a))
    return trip_count(plan, lbe, ube, ste)


def _carried_on(seq: list[KernelPlan]) -> dict[int, set[str]]:
    """For each loop of ``seq`` (by ``id``), the iter_args whose last values a later loop's copies start from (a
    peeled tail loop's pointers, advanced by the loop before): the producer carries them through that loop too."""
    out: dict[int, set[str]] = {id(q): set() for q in seq}
    ops = seq[0].fn.ops
    loops = {ops.index(q.loop): q for q in seq}
    result_of = {res: (q, q.loop.body.args[1 + k]) for q in seq if q.loop.body is not None
                 for k, res in enumerate(q.loop.results)}
    for q in reversed(seq):
        sl = scalar_loop(q, {v for r in q.rings for v in q.body[r.load].operands} | out[id(q)])
        need = closure(ops, sl.outside, set(loops))
        wanted = sl.outside | {v for i in need if i not in loops for v in ops[i].operands}
        for v in wanted & set(result_of):
            p, arg = result_of[v]
            out[id(p)].add(arg)
    return out


def producer_function(mod: Module, part: Partition) -> str:
    """The producer: for each iteration, each ring's tile in the schedule's order: wait for the buffer
    to be released, expect its bytes, issue the TMA copy (its loop is not pipelined: the rings' depth
    is how far it runs ahead). With a reduction it shares (``plan.producer_share``), after the loads the
    lower half of the rows of the partials ``lag`` iterations back, and the last ``lag`` after the loop."""
    src = Source(mod, part)
    body = mod.plan.body
    rings = sorted(mod.plan.rings, key=lambda r: r.key)
    red = mod.plan.reduction
    lag = red.shared_lag if red is not None else None
    sl = scalar_loop(mod.plan, {v for r in rings for v in body[r.load].operands}
                     | {v for r in rings if r.box is not None for v in r.box.values()})
    sl.outside |= {v for t in mod.tile_loads for v in t.op.operands}
    if lag is None:
        loops = []
        carry = _carried_on(mod.plan.sequence)
        for q in mod.plan.sequence:
            q_rings = sorted(q.rings, key=lambda r: r.key)
            want = {v for r in q_rings for v in q.body[r.load].operands} | carry.get(id(q), set()) \
                | {v for r in q_rings if r.box is not None for v in r.box.values()}
            q_sl = scalar_loop(q, want)
            if q is mod.plan:
                q_sl.outside |= sl.outside
            loops.append((q, q_sl, lambda inner, q_rings=q_rings: [ln for r in q_rings for ln in _producer_load(inner, r)]))
        return _worker_loops(src, loops, lambda s: [ln for t in mod.tile_loads for ln in _producer_tile_load(s, t)],
                             f"producer_{part.index}")
    assert red is not None
    sl.outside |= _reduction_outside(mod.plan) | scalar_loop(mod.plan, {red.base}).outside
    iv = mod.plan.loop.body.args[0]
    lay = _reducer_layout(src, red)
    half = (red.rows // 2, red.rows)

    def work(inner: Source) -> list[str]:
        lines = [ln for r in rings for ln in _producer_load(inner, r)]
        lbe, ste = (inner.ctx.vals[py_name(v)].expr for v in _loop_bounds(mod.plan.loop)[::2])
        at, base = _base_at(inner, red, iv, f"({py_name(iv)} - {lag} * {ste})", "lag")
        return lines + [f"if {py_name(iv)} >= {lbe} + {lag} * {ste}:"] + [
            "    " + ln for ln in at + _add_rows(inner, red, lay, f"twill_k - {lag}", base, half, lag)]

    def tail(s: Source, n: str) -> list[str]:
        lbe, ste = (s.ctx.vals[py_name(v)].expr for v in _loop_bounds(mod.plan.loop)[::2])
        at, base = _base_at(s, red, iv, f"({lbe} + twill_j * {ste})", "tail")
        k = "twill_base + twill_j" if mod.persistent else "twill_j"
        return ([f"twill_n = {n}", f"for twill_j in range(gl.maximum(twill_n - {lag}, 0), twill_n):"]
                + ["    " + ln for ln in at + _add_rows(s, red, lay, k, base, half, lag)])

    def head(s: Source) -> list[str]:
        return [ln for t in mod.tile_loads for ln in _producer_tile_load(s, t)] + [_cols_line(red, lay)]
    return _worker_loop(src, sl, head, work, f"producer_{part.index}", tail)


def reducer_function(mod: Module, part: Partition) -> str:
    """The reducer (``plan.Reduction``): for each iteration, once every consumer has stored its partial,
    row by row (the upper half when the producer shares the rows): the partials' sum, one atomic add per
    element at the iteration's base plus the row-major offsets; then the buffers handed back."""
    red = mod.plan.reduction
    assert red is not None
    src = Source(mod, part)
    sl = scalar_loop(mod.plan, {red.base})
    sl.outside |= _reduction_outside(mod.plan)
    lay = _reducer_layout(src, red)
    rows = (0, red.rows // 2 if red.shared_lag is not None else red.rows)

    def work(inner: Source) -> list[str]:
        return _add_rows(inner, red, lay, "twill_k", inner.ctx.vals[py_name(red.base)].expr, rows)
    return _worker_loop(src, sl, lambda s: [_cols_line(red, lay)], work, f"reducer_{part.index}")


def _reduction_outside(plan: KernelPlan) -> set[str]:
    red = plan.reduction
    assert red is not None
    return set() if red.stride.lstrip("-").isdigit() else {red.stride}


def _reducer_layout(src: Source, red: Any) -> str:
    vec = min(4, red.cols // 32)
    return src.ctx.layouts.setdefault(f"gl.BlockedLayout(size_per_thread=[1, {vec}], threads_per_warp=[1, 32], "
                                      "warps_per_cta=[1, 1], order=[1, 0])", f"L{len(src.ctx.layouts)}")


def _cols_line(red: Any, lay: str) -> str:
    return f"twill_cols = gl.expand_dims(gl.arange(0, {red.cols}, layout=gl.SliceLayout(0, {lay})), 0)"


def _add_rows(src: Source, red: Any, lay: str, k: str, base: str, rows: tuple[int, int], stage: int = 0) -> list[str]:
    """Rows ``rows`` of iteration ``k``'s partials: wait until every consumer stored its own, add them, one
    atomic add per element at ``base``, then say this partition is done with the buffers. The atomic add
    says which graph node it is (``stage``: how many iterations behind this partition's own), so that the
    profile times it as that node's region in this partition."""
    stride = red.stride if red.stride.lstrip("-").isdigit() else src.ctx.vals[py_name(red.stride)].expr
    subs = range(1 if red.split is not None else src.plan.subtiles)    # split by columns: one sum, nothing to add
    parts = " + ".join(f"{red.buffer(s)}.slice(twill_r, 1, dim=0).load({lay})" for s in subs)
    return [f"mbarrier.wait(twill_red_ready.index(0), ({k}) & 1)",
            f"for twill_r in gl.static_range({rows[0]}, {rows[1]}):",
            f"    gl.atomic_add({base} + twill_r * {stride} + twill_cols, {parts}, sem='{red.sem}', "
            f"scope='{red.scope}')  # {src.plan.node_of.get(red.op, 'reduce')}: stage {stage}, partition "
            f"{src.part.index} (group {src.part.group})",
            "mbarrier.arrive(twill_red_free.index(0))"]


def _base_at(src: Source, red: Any, iv: str, at: str, tag: str) -> tuple[list[str], str]:
    """The lines computing the reduction's base address for another iteration, the loop index read as
    ``at`` (``plan.producer_share``: the base is a function of the index and of values fixed before the
    loop), each result renamed with ``tag``; and the base's expression. ``src``'s values are left as they were."""
    body = src.plan.body
    saved = dict(src.ctx.vals)
    src.ctx.vals[py_name(iv)] = Val(at, src.ctx.ttype(iv))
    lines: list[str] = []
    for i in sorted(closure(body, {red.base})):
        op = body[i]
        src.bind(op, None)
        out = translate(op, src.ctx)
        for r in op.results:
            val = src.ctx.vals[r]
            if not val.broadcast and val.expr == py_name(r):
                new = f"{py_name(r)}_{tag}"
                out = [re.sub(rf"^{re.escape(py_name(r))} =", f"{new} =", ln) for ln in out]
                val = Val(new, val.type)
            src.ctx.vals[r] = src.ctx.vals[py_name(r)] = val
        lines += out
    base = src.ctx.vals[py_name(red.base)].expr
    src.ctx.vals.clear()
    src.ctx.vals.update(saved)
    return lines, base


def _producer_tile_load(src: Source, t: TileLoad) -> list[str]:
    """A consumer's per-tile tile, loaded by the producer once the consumer released the last tile's."""
    src.bind(t.op, None)
    d = py_name(t.op.operands[0])
    bar = f"{t.key}_bar.index(0)"
    return [f"mbarrier.wait({t.key}_free.index(0), (({src.mod.tile_count}) & 1) ^ 1)",
            f"mbarrier.expect({bar}, {d}.block_type.nbytes)",
            f"tma.async_copy_global_to_shared({d}, [{', '.join(src.coords(t.op, t.sub))}], {bar}, {t.key}_buf)"]


def _producer_load(src: Source, r: Ring) -> list[str]:
    op = src.plan.body[r.load]
    src.bind(op, r.subtile)
    d = py_name(op.operands[0])
    slot = f"twill_k % {r.depth}"
    free = f"mbarrier.wait({r.name}_empty.index({slot}), ((twill_k // {r.depth}) & 1) ^ 1)"
    if r.copied and r.box is not None:
        ready = f"{r.name}_ready.index({slot})"
        return [free, f"if {TMA_FLAG}:", f"    mbarrier.expect({ready}, {r.box.name}.block_type.nbytes)",
                f"    tma.async_copy_global_to_shared({r.box.name}, [{', '.join(_box_coords(src, r.box))}], {ready}, "
                f"{r.name}_buf.index({slot}))  # {src.plan.node_of.get(r.load, r.name)}: a TMA box (boxes)",
                "else:"] + ["    " + ln for ln in _copy_lines(src, r, op, slot)]
    if r.copied:
        return [free] + _copy_lines(src, r, op, slot)
    return [free,
            f"mbarrier.expect({r.name}_ready.index({slot}), {d}.block_type.nbytes)",
            f"tma.async_copy_global_to_shared({d}, [{', '.join(src.coords(op, r.subtile))}], "
            f"{r.name}_ready.index({slot}), {r.name}_buf.index({slot}))"]


def _box_coords(src: Source, box: Box) -> list[str]:
    """A box's coordinates in this iteration: its atoms as the producer computed them, ``ITER`` the iteration."""
    lb, _, step = (src.ctx.vals[py_name(v)].expr for v in _loop_bounds(src.plan.loop))
    iv = py_name(src.plan.loop.body.args[0])
    it = iv if (lb, step) == ("0", "1") else f"(({iv} - {lb}) // {step})"
    coords = box.coord_py(lambda a: it if a == ITER else (src.ctx.vals.get(a) or src.ctx.vals[py_name(a)]).expr)
    wide = (a for c in box.coords for a in c.atoms() if a.startswith("%"))
    if any(type_info(src.plan.fn.type_of(a)).dtype == "i64" for a in wide):
        # a TMA copy's coordinates are int32 ("Block pointers only support 32 bit offsets"): FlagGems' bmm computes
        # its tiles' offsets from int64 program ids, its mm wraps them (``% N``, a tensor's atom); the launch checked
        # its extents, or the wrap's bound, fit (``boxes.analyse``)
        coords = [f"gl.cast({c}, gl.int32)" for c in coords]
    return coords


def _copy_lines(src: Source, r: Ring, op: IROp, slot: str) -> list[str]:
    """A pointer tile into ring slot ``slot``: with cp.async, each thread copying its 16-byte vectors and arriving
    once they landed (the ready barrier counts every thread); or, where the launch's arguments are too little aligned
    for cp.async (its copies are 4 bytes at least; Gluon 3.6 fails to compile narrower ones), through registers:
    loaded, stored, fenced for the wgmma that reads it, and one arrival for every thread once all have stored."""
    ptrs = src.ctx.vals[py_name(op.operands[0])].expr
    mask = f", mask={src.ctx.vals[op.operands[1]].expr}" if len(op.operands) > 1 else ""
    tag = f"  # {src.plan.node_of.get(r.load, r.name)}: stage 0, partition {src.part.index} (group {src.part.group})"
    buf, ready = f"{r.name}_buf.index({slot}){r.view}", f"{r.name}_ready.index({slot})"
    other = f", other={'0.0' if r.dtype.startswith(('f', 'bf')) else '0'}" if mask else ""
    copy, load_store = tile_copies(buf, ptrs, mask, other, op)
    through_registers = [f"{load_store}{tag}", "fence_async_shared()",
                         "gl.thread_barrier()", f"mbarrier.arrive({ready}, count={32 * src.part.warps})"]
    if r.registers:          # cp.async cannot copy it (plan._copy_vectors)
        return through_registers
    return [f"if {COPY_FLAG}:",
            f"    {copy}{tag}",
            f"    async_copy.mbarrier_arrive({ready}, increment_count=False)",
            "else:"] + ["    " + ln for ln in through_registers]


def register_rings(mod: Module, turns: bool) -> None:
    """The rings' buffers and barriers (and the turn and start barriers), before any partition refers to them."""
    plan = mod.plan
    copiers = 32 * (plan.producer.warps if plan.producer is not None else 1)
    for r in plan.rings:
        d = py_name(plan.body[r.load].operands[0])
        if r.copied:
            shape = [r.depth] + list(r.box.shape if r.box is not None else r.shape)
            lay = parse_layout(r.layout, mod.table)
            layout = (dataclasses.replace(lay, transposed=False) if r.view else lay).spell()
        else:
            shape = [r.depth] + _tile_shape(plan, plan.body[r.load].operands[0])
            layout = descriptor_layout(plan.fn, plan.body[r.load].operands[0], mod.table)
        mod.smem.append((f"{r.name}_buf", f"gl.allocate_shared_memory({gl_dtype(r.dtype)}, {shape}, {layout})"))
        count = copiers if r.copied else 1
        mod.barriers.append((f"{r.name}_ready", f"1 if {TMA_FLAG} else {count}" if r.box is not None else count,
                             r.depth))
        mod.barriers.append((f"{r.name}_empty", len(r.readers), r.depth))
    if not local_buffers(plan):      # else each loop allocates its own
        mod.smem += [(a.name, ring_allocation(a)) for q in plan.sequence for a in q.asyncs]
        mod.smem += _staged_buffers(plan)
    red = plan.reduction
    if red is not None:
        pad = f"gl.PaddedSharedLayout.with_identity_for([[{red.cols}, {RED_PAD}]], [{red.rows}, {red.cols}], [1, 0])"
        for s in range(1 if red.split is not None else plan.subtiles):
            mod.smem.append((red.buffer(s), f"gl.allocate_shared_memory({gl_dtype(red.dtype)}, [{red.rows}, "
                                            f"{red.cols}], {pad})"))
        if red.split is not None:     # each sub-tile's staged A operand, read by the others (``plan.ColumnSplit``)
            mod.barriers.append(("twill_xs_ready", 1, plan.subtiles))
            mod.barriers.append(("twill_xs_free", plan.subtiles - 1, plan.subtiles))
        mod.barriers.append(("twill_red_ready", plan.subtiles, 1))
        mod.barriers.append(("twill_red_free", 2 if red.shared_lag is not None else 1, 1))
    if turns:
        mod.barriers.append(("twill_turn", 1, len(plan.tc_runs)))
    register_start(mod)


def _guards(mod: Module, part: Partition) -> list[str]:
    """The kernel's early returns, before its partitions start (so none of them runs where one is taken): each
    with the code before it that its condition and its branch read, in the first consumer's layouts (the
    kernel's default warps); then the stores and atomics before the kernel's own tile loop, once (each partition
    writes the code before the nest again for every tile)."""
    effects = mod.entry_effects
    if not mod.guards and not effects:
        return []
    src, ops = Source(mod, part, noted=False), mod.plan.fn.ops     # the consumer's own Source notes its layouts
    written: set[int] = set()
    for g in mod.guards:
        inside = {r for o in g.block.ops for r in o.results}
        free = sorted({g.cond} | {v for o in g.block.ops for v in o.operands if v not in inside})
        mine = {i for i in effects if i < g.at} - written        # the stores before this early return, once
        need = set(free) | {v for i in mine for v in ops[i].operands}
        for i in sorted((closure(ops[:g.at], need) - written) | mine):
            src.straight(ops[i], None)
        written |= mine
        src.bind(dataclasses.replace(g.op, operands=tuple(free)), None)
        src.lines += guard_lines(g, src.ctx)
    rest = effects - written         # the stores before the kernel's own tile loop, after its early returns
    if rest:
        head = ops[:max(rest) + 1]
        for i in sorted((closure(head, {v for i in rest for v in ops[i].operands}) - written) | rest):
            src.straight(ops[i], None)
    return src.lines


def entry_function(mod: Module, name: str, parts: list[tuple[str, Partition]]) -> str:
    """The kernel: its early returns, shared memory and barriers for every partition, then ``gl.warp_specialize``."""
    lines = [] if mod.persistent and mod.tile_loop is None else _guards(mod, parts[0][1])   # else per tile (tile_guards)
    for n, alloc in mod.smem:
        lines.append(f"{n} = {alloc}")
    for n, count, many in mod.barriers:
        lines.append(f"{n} = gl.allocate_shared_memory(gl.int64, [{many}, 1], mbarrier.MBarrierLayout())")
        lines.append(f"for i in gl.static_range({many}):")
        lines.append(f"    mbarrier.init({n}.index(i), count={count})")
    args = "(" + ", ".join([py_name(a.name) for a in mod.runtime_args()] + mod.grid_params() + mod.box_params()) \
        + ", " + ", ".join(mod.shared() + mod.flags()) + ")"
    if len(parts) == 1:                  # one partition (no producer): the kernel runs it, no warp_specialize
        lines.append(f"{parts[0][0]}{args}")
        head = ["@gluon.jit", f"def {name}({mod.params()}):"]
        return "\n".join(head + ["    " + ln for ln in lines]) + "\n"
    calls = ",\n        ".join(f"({fname}, {args})" for fname, _ in parts)
    workers = [p for _, p in parts[1:]]
    lines.append(f"gl.warp_specialize([\n        {calls},\n    ], {[p.warps for p in workers]}, "
                 f"{[p.regs for p in workers]})")
    head = ["@gluon.jit", f"def {name}({mod.params()}):"]
    return "\n".join(head + ["    " + ln for ln in lines]) + "\n"
