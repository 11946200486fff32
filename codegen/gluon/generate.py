"""From a kernel's pre-pipeline TTGIR and its joint schedule to a Gluon module: ``generate`` writes the
source (``kernel_gluon.py``), ``compile_offline`` compiles it for the target without a GPU.
"""
from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Iterator, Sequence

from codegen.gluon.api import installed_spelling
from codegen.gluon.kernel import (SIGNATURE, Level, Module, TileLoop, alone, consumer_function, entry_function, header,
                                  least_trips, serpentine, trip_count_varies, unchecked_trips,
                                  producer_function, reducer_function, register_rings, tile_level)
from codegen.gluon.layouts import Blocked, NvmmaShared, aliases, parse_layout, parse_type
from codegen.gluon.partition import Turn
from codegen.gluon.descriptors import launch_descriptors
from codegen.gluon.host import KERNEL, launcher
from codegen.gluon.ops import LIBDEVICE_IMPORT, MMA_V2_IMPORT, NAN_IMPORT, scan_functions, source_where
from codegen.gluon.plain import (IF, Guard, distinct_branch_names, distinct_ranges, early_returns, effect_name,
                                 effectful, entry_effects, guarding_ifs, renamed_op)
from codegen.gluon.protocol import COPY_FLAG, OWN_TILE_LOOP, TMA_FLAG
from codegen.gluon.plan import (COPY_WARPS, PREFETCH, RED_PAD, REG_FILE, KernelPlan, Ring, SharedMemoryExceeded,
                                node_of_op, plan_kernel, settle_boxes, sibling)
from codegen.gluon.sass import spills_in_loops
from codegen.gluon.trips import counted_at_launch
from twill.schedule.latency import latency_floor
from codegen.gluon.values import py_name
from twill.errors import CompileError, UnsupportedError
from twill.ir.triton_hooks import contained
from twill.graph.io import graph_from_dict, graph_to_dict
from twill.graph.model import LoopGraph
from twill.ir import vocab
from twill.ir.dims import row_split
from twill.ir.function import Arg, Function, read_function
from twill.ir.ttgir import TypeInfo, closure, int_constant, loop_bounds, loops as ttgir_loops
from twill.ir.load import KernelSpec
from twill.machine.model import Machine
from twill.schedule.model import Schedule

_TYPES = {"f32": "fp32", "f16": "fp16", "bf16": "bf16", "f64": "fp64", "i32": "i32", "i64": "i64", "i1": "i1",
          "i8": "i8", "i16": "i16", "f8E4M3FN": "fp8e4nv", "f8E5M2": "fp8e5"}


@dataclass(frozen=True)
class GluonKernel:
    """The generated module and how to compile and launch it."""

    source: str
    name: str
    num_warps: int
    maxnreg: int | None           # None: ptxas allocates (one partition, no setmaxnreg)
    signature: dict[str, str]                 # runtime argument -> Triton signature type
    divisible: tuple[str, ...]
    descriptor_blocks: dict[str, list[int]]
    plan: KernelPlan = field(repr=False, compare=False)
    decisions: tuple[str, ...] = ()
    own_stores: bool = True                   # ``generate``'s argument: stores after the loop in buffers of their own
    cp_async: bool = True                     # ``generate``'s argument: pointer tiles copied with cp.async where aligned
    tma: bool = True                          # ``generate``'s argument: pointer tiles that are TMA boxes loaded so
    assumed: tuple[str, ...] = ()             # integer arguments written as if 16-divisible (``frontend.widened``)
    short: dict[str, Any] | None = None       # the one-partition kernel launched for short loops (``short``)

    def to_dict(self) -> dict[str, Any]:
        return {"kernel": self.name, "num_warps": self.num_warps, "maxnreg": self.maxnreg,
                "signature": self.signature, "divisible": list(self.divisible),
                **({"assumed_divisible": list(self.assumed)} if self.assumed else {}),
                "descriptor_blocks": self.descriptor_blocks,
                "staged": [b.name for b in self.plan.staging.buffers] if self.plan is not None else [],
                **({"stage": self.plan.stage} if self.plan is not None else {}),
                "own_stores": self.own_stores,
                "copy_warps": self.plan.copy_warps if self.plan is not None else COPY_WARPS,
                **({} if self.cp_async else {"cp_async": False}), **({} if self.tma else {"tma": False}),
                **({"chains": True} if self.plan is not None and self.plan.chains else {}),
                **({"two_ctas": False} if self.plan is not None and not self.plan.two_ctas_allowed else {}),
                **({"copy_wgmma": True} if self.plan is not None and self.plan.copy_wgmma else {}),
                **({"own_tiles": True, "prefetch": self.plan.prefetch} if self.plan is not None and self.plan.own_tiles
                   else {}),
                **({"short_loops": self.short} if self.short else {}),
                "decisions": list(self.decisions),
                "siblings": [{"graph": graph_to_dict(q.graph), "schedule": q.schedule.to_dict()}
                             for q in (self.plan.siblings if self.plan is not None else [])]}

    @classmethod
    def from_dict(cls, d: dict[str, Any], source: str) -> "GluonKernel":
        """The kernel ``to_dict`` recorded (``gluon.json``'s ``gluon.kernel``) with its ``source``, to compile
        again without its plan."""
        return cls(source, d["kernel"], d["num_warps"], d["maxnreg"], dict(d["signature"]), tuple(d["divisible"]),
                   dict(d["descriptor_blocks"]), plan=None, decisions=tuple(d.get("decisions", ())),  # type: ignore[arg-type]
                   own_stores=bool(d.get("own_stores", True)), cp_async=bool(d.get("cp_async", True)),
                   tma=bool(d.get("tma", True)), short=d.get("short_loops"))


def _sig(a: Arg, plan: KernelPlan, table: dict[str, str]) -> str:
    t = parse_type(a.type, table)
    if t.kind == "tensordesc":
        shape = list(t.shape)
        if plan.rows is not None and a.name in plan.rows.descriptors:
            shape[plan.rows.descriptors[a.name]] //= plan.subtiles
        assert isinstance(t.layout, NvmmaShared)
        return _desc_sig(t.dtype, shape, t.layout)
    if t.kind == "ptr":
        return "*" + _TYPES.get(t.dtype, t.dtype)
    return _TYPES.get(t.dtype, t.dtype)


def _least_trips(plan: KernelPlan, fn: Any, turns: bool) -> int:
    """The fewest iterations the kernel's loops may run (``kernel.least_trips``), and the checks a launch makes of
    those it counts (``plan.launch_checks``). A kernel is refused whose consumers run a loop in more stages than a
    short trip count allows where nothing checks the trip count: a loop of three stages beside a producer fills two
    iterations before its steady state and has no copy for fewer (``kernel._pipelined``), and where its bounds read
    a program id (or the tile index, or an earlier loop's result: ``trip_count_varies``; FlexAttention's full blocks:
    none for the first query block) or a length the kernel computes (``kernel.unchecked_trips``) the launch cannot
    route the short programs elsewhere. Illegal addresses on the H200 (run 101)."""
    least = 0
    for q in plan.sequence:
        stages, unchecked = max(p.stages for p in q.consumers), unchecked_trips(fn, plan, q.loop)
        need = least_trips(stages, turns, unchecked, alone(plan))
        least = max(least, need)
        if need >= 1 and not unchecked:
            plan.launch_checks.append((counted_at_launch(plan, q.loop), need))
        elif need >= 1 and not alone(plan):
            varies = trip_count_varies(fn, q.loop)
            raise UnsupportedError(
                "a loop whose trip count " + ("varies between programs" if varies else "the launch cannot evaluate")
                + " needs its consumers in at most two stages, taking no tensor-core turns",
                where=plan.graph.name, expected="a schedule whose consumers run two stages (then a program "
                "without an iteration skips the loop)",
                found=f"consumers in {stages} stages{' taking turns' if turns else ''} (at least {need} iterations "
                      "a program), its bounds read " + ("a program id, the tile index or an earlier loop's result"
                                                        if varies else "a value the kernel computes"))
    return least


def generate(ttgir: str, graph: LoopGraph, schedule: Schedule, machine: Machine,
             spec: KernelSpec | None = None, tc_order: bool = False, persistent: bool | None = False,
             stage: bool = False, own_stores: bool = True, tree_reductions: bool = False,
             reducer: bool = True, siblings: tuple[tuple[LoopGraph, Schedule], ...] = (),
             copy_warps: int = COPY_WARPS, cp_async: bool = True, chains: bool = False, tma: bool = True,
             two_ctas: bool = True, copy_wgmma: bool = False, own_tiles: bool = False,
             prefetch: int | None = None, split_columns: bool = True) -> GluonKernel:
    """The Gluon module of ``schedule`` (a joint schedule of ``graph``, split into row sub-tiles or not)
    for the kernel whose pre-pipeline TTGIR is ``ttgir``; ``stage``: dots read their register A operands
    from shared buffers (``plan.Staging``); ``own_stores``: a persistent kernel with a producer stores its
    results through buffers of their own, not the buffers of tiles loaded for the loop (which the producer
    then refills for the next tile while this one's results are stored); ``tree_reductions``: a row reduction
    of a wgmma accumulator is written as a tree over each thread's registers (``ops.reduce``), not as the chain
    Triton emits; ``reducer``: split partials added atomically go through a reducer partition
    (``plan.Reduction``), where the kernel has them; ``siblings``: the graph (split as ``graph``) and schedule of
    each other loop beside the scheduled one (``sibling_loops``), written in the same partitions (``plan.sibling``);
    ``copy_warps``: the producer's warps where it copies pointer tiles (more: its rings one deeper, ``plan``);
    not ``cp_async``: it copies them through registers at every launch (their addresses cannot be proved aligned:
    loaded from memory, say), else with cp.async where aligned; ``chains``: ``_chains``; ``tma``: ``settle_boxes``;
    ``two_ctas``: two CTAs per SM where the plan's register estimates allow (``plan._two_ctas``); ``copy_wgmma``: a
    consumer's pointer tiles that a wgmma reads copied with cp.async too (``plan._async_tiles``); ``own_tiles``: the
    consumers load their dot operands' pointer tiles themselves, no producer copying them (``plan.copied_tiles``), a
    tile only wgmmas read ``prefetch`` ahead with ``cp_async`` (``_plan``); ``split_columns``: ``plan.ColumnSplit``.
    E.g. ``generate(kir.text, split_graph_, joint, load_machine("h100"), kir.spec).source``."""
    if machine.sm != 90:
        raise UnsupportedError("the Gluon back end writes Hopper (sm_90) kernels", where=graph.name,
                               expected="an h100 or h200 machine", found=f"{machine.name} (sm_{machine.sm})")
    ttgir, made = launch_descriptors(_names(ttgir, graph, bool(siblings)), graph.name)
    fn, tile_loop, guards = kernel_function(ttgir, graph)
    others = [(_graph_loop(fn, g), g, s) for g, s in siblings]
    loop = _scheduled_loop(fn, graph, [o for o, _, _ in others] + list(tile_loop.after if tile_loop else ()))
    rows = row_split(fn, loop) if int(graph.get("row_split") or 1) > 1 else None
    plan = _plan(fn, loop, graph, schedule, machine, rows, stage=stage, reduce=reducer and not siblings,
                 own_stores=own_stores, copy_warps=copy_warps, two_ctas=two_ctas and not grid_strided(fn, tile_loop),
                 copy_wgmma=copy_wgmma, own_tiles=own_tiles, prefetch=prefetch if cp_async else 0,
                 split_columns=split_columns)
    _around_loop(plan, fn, tile_loop, graph.name)
    plan.siblings = [sibling(plan, o, g, s) for o, g, s in others]
    plan.decisions += settle_boxes(plan, tma)     # once the loops after it have taken their rings' boxes
    _chains(plan, chains)
    persistent = _persistent_guarded(plan, tile_loop, guards, persistent)
    table = aliases(ttgir)
    mod = Module(plan, table, persistent=persistent, own_stores=own_stores, tree_reductions=tree_reductions,
                 tile_loop=tile_loop, serpentine=serpentine(fn, [q.loop for q in plan.sequence], persistent, tile_loop),
                 guards=guards, cp_async=cp_async)
    turns = tc_order and len({p for p, _ in plan.tc_runs}) > 1
    if turns and plan.siblings:
        raise UnsupportedError("the Gluon back end takes tensor-core turns in one loop", where=graph.name,
                               expected="--tc-order off for a kernel with several loops",
                               found=f"{len(plan.sequence)} loops")
    plan.least_trips = _least_trips(plan, fn, turns)
    register_rings(mod, turns)
    parts = []
    for p in plan.consumers:
        turn = _turn(plan, p.index, mod) if turns else None
        parts.append((f"consumer_{p.index}", p, consumer_function(mod, p, turn)))
    if plan.producer is not None:
        parts.append((f"producer_{plan.producer.index}", plan.producer, producer_function(mod, plan.producer)))
    if plan.reducer is not None:
        parts.append((f"reducer_{plan.reducer.index}", plan.reducer, reducer_function(mod, plan.reducer)))
    entry = entry_function(mod, KERNEL, [(n, p) for n, p, _ in parts])
    consts = [f"{name} = gl.constexpr({spelled})" for spelled, name in mod.layouts.items()]
    functions = [f.replace(SIGNATURE, mod.signature()) for _, _, f in parts] + [entry]
    text = "".join(functions)
    head = header(plan) + (LIBDEVICE_IMPORT if "libdevice." in text else "") + \
        (MMA_V2_IMPORT if "mma_v2(" in text else "") + (NAN_IMPORT if "tl.PropagateNan." in text else "")
    body = [head, "\n".join(consts + [""] + scan_functions(text))] + functions
    signature = {py_name(a.name): _sig(a, plan, table) for a in mod.runtime_args()}
    signature.update({g: "i32" for g in mod.grid_params()})
    signature.update(_box_and_flag_sig(mod, table))
    blocks = {py_name(a.name): list(_block(a, plan, table)) for a in mod.runtime_args()
              if a.type.startswith("!tt.tensordesc")}
    assumed = tuple(spec.assumed) if spec is not None else ()
    decisions = _all_decisions(mod, turns, persistent and tile_loop is None, table, assumed) + _assumed(assumed)
    plan.decisions = list(decisions)
    source = installed_spelling(_docstring(plan, schedule, decisions) + "\n".join(body) + "\n"
                                + launcher(mod, spec, signature, blocks, plan, made))
    return GluonKernel(source, KERNEL, plan.consumers[0].warps, plan.maxnreg, signature,
                       tuple(py_name(a.name) for a in mod.runtime_args() if a.divisible), blocks, plan, decisions,
                       own_stores, cp_async, tma, tuple(spec.assumed) if spec is not None else ())


def _around_loop(plan: KernelPlan, fn: Function, tile_loop: TileLoop | None, name: str) -> None:
    """What the plan holds of the code around the scheduled loop: the rows of the tiles the kernel's own loop
    carries (``_carried_rows``), and a loop nest beside it only in a kernel of one partition."""
    _carried_rows(plan, tile_loop, name)
    _nests_in_one_partition(plan, fn, name, tile_loop)
    effect = tile_loop.control_effect if tile_loop is not None else None
    if effect is not None and len(plan.partitions) > 1:     # one partition runs the nest's control once
        raise UnsupportedError("the Gluon back end runs the kernel's own tile loop in every partition, so the loop's "
                               "next tile may not come from an op that writes memory in a kernel of several partitions",
                               where=f"{name}, {source_where(effect)}",
                               found=f"{effect.name} feeding the tile loop's control (each partition would run it)")
    looped = next((o for o in tile_loop.after if o.name in (vocab.LOOP, vocab.WHILE) and not plain_for(o)),
                  None) if tile_loop is not None else None
    if looped is not None and len(plan.partitions) > 1:   # written as it runs after the nest, by the one partition
        raise UnsupportedError("the Gluon back end writes a loop of tiles after the kernel's own tile loop in a "
                               "kernel of one partition only", where=f"{name}, {source_where(looped)}",
                               found=f"{len(plan.partitions)} partitions")
    if tile_loop is not None and tile_loop.after and not tile_loop.tensors and len(plan.partitions) > 1:
        first = next((o for o in tile_loop.after if o.loc.line is not None), tile_loop.after[0])
        raise UnsupportedError("the Gluon back end keeps a tile loop with nothing after it in a kernel of several "
                               "partitions (code after the kernel's own loop around the scheduled one is written there "
                               "only where that loop carries tiles)", where=f"{name}, {source_where(tile_loop.levels[0].op)}",
                               found=f"{first.name} at {source_where(first)} after the tile loop")


def _nests_in_one_partition(plan: KernelPlan, fn: Function, name: str, tile_loop: TileLoop | None) -> None:
    """A loop beside the scheduled one holding a loop of its own (``plain_nest``) is written as it runs by the
    kernel's one partition; refused in one line where the plan has several (a producer would have to compute its
    values too, and its stores run once), or where it comes before the kernel's own tile loop (its code would run
    again for every tile: FlagGems' batch-norm backward's first pass over the whole feature, once per batch block)."""
    nest = next((o for o in fn.ops if plain_nest(o)), None)
    if nest is None:
        return
    if len(plan.partitions) > 1:
        raise UnsupportedError("a loop beside the scheduled one holds a loop of its own (the Gluon back end writes "
                               "such a nest as it runs in a kernel of one partition only)",
                               where=f"{name}, {source_where(nest)}", found=f"{len(plan.partitions)} partitions")
    if tile_loop is not None and fn.ops.index(nest) < tile_loop.before:
        raise UnsupportedError("a loop holding a loop before the kernel's own tile loop (the Gluon back end would "
                               "run it again for every tile)", where=f"{name}, {source_where(nest)}",
                               found=f"the tile loop at {source_where(tile_loop.levels[0].op)} after it")


def _assumed(assumed: tuple[str, ...]) -> tuple[str, ...]:
    if not assumed:
        return ()
    return (f"written from the layouts Triton gives {', '.join(py_name('%' + n) for n in assumed)} 16-divisible (its "
            "pointer loads 16 bytes a thread where the launch's specialisation proves them aligned, as Triton's own "
            "kernel at such a launch; at one where they are not, Gluon's lowering loads narrower vectors: run 66, "
            "FlagGems' softmax correct at N = 33001, x0.64 -> x1.00)",)


def _all_decisions(mod: Module, turns: bool, persistent: bool, table: dict[str, str],
                   assumed: tuple[str, ...] = ()) -> tuple[str, ...]:
    """Every decision the generated kernel states, one line each, in the order its docstring lists them."""
    plan = mod.plan
    said = _decisions(plan, turns, persistent, mod.serpentine)
    if mod.copies and not mod.cp_async:
        said = [d.replace("cp.async copies into the rings", "copies through registers into the rings") for d in said]
    return tuple(_through_registers(mod) + said + _own_tile_loop(mod) + _handoff(mod) + _trees(mod) + _compact(mod)
                 + _sibling_decisions(plan) + _plain_decisions(mod) + _narrow_loads(plan, mod, table, assumed))


def _through_registers(mod: Module) -> list[str]:
    """Planning's decisions, saying so where the producer copies its pointer tiles through registers at every
    launch (``generate``'s ``cp_async``)."""
    if mod.cp_async or not mod.copies:
        return list(mod.plan.decisions)
    return [d.replace("-warp producer with cp.async", "-warp producer through registers") for d in mod.plan.decisions] + [
        "pointer tiles copied through registers (the producer's loads, then stores to the rings): cp.async would copy "
        "them in pieces under 4 bytes, their addresses not known aligned (computed from values loaded from memory, or "
        "from arguments not specialised divisible)"]


def recorded_siblings(kernel: dict[str, Any]) -> tuple[tuple[LoopGraph, Schedule], ...]:
    """The sibling loops' graphs and schedules a generated kernel recorded (``GluonKernel.to_dict``), as
    ``generate`` takes them."""
    return tuple((graph_from_dict(x["graph"]), Schedule.from_dict(x["schedule"])) for x in kernel.get("siblings", ()))


def _docstring(plan: KernelPlan, s: Schedule, decisions: tuple[str, ...]) -> str:
    norm = s.get("normalization") or {}
    scale = float(norm.get("scale") or s.time_unit or 1.0)
    floor = latency_floor(plan.graph, s, own=plan.producer is None)     # the route's figure (``Candidate.cycles``)
    lines = [f'"""{plan.fn.name}, written by twill from its joint schedule: I={s.ii} L={s.length} ({s.status}), '
             f"{max(s.ii * scale, floor):.0f} cycles per iteration predicted"
             + (f" (its loads' latency over their lead: the schedule's I is {s.ii * scale:.0f})" if floor > s.ii * scale
                else "") + ".", "",
             "Decisions (each from the schedule):"] + [f"- {d}" for d in decisions] + [
        "", "Every op of the loop says which graph node, stage and partition it is. Launch: ``launch(grid, *args)``",
        "with the Triton kernel's arguments, or ``kernel[grid](*args)`` in place of the Triton kernel.", '"""', ""]
    return "\n".join(lines)


def _desc_sig(dtype: str, shape: Sequence[int], lay: NvmmaShared) -> str:
    return (f"tensordesc<{_TYPES[dtype]}[{', '.join(map(str, shape))}],NVMMASharedLayout(swizzle_byte_width="
            f"{lay.swizzle}, element_bitwidth={lay.bits}, rank={len(shape)}, transposed={lay.transposed}, "
            "fp4_padded=False, cga_layout=[])>")


def _box_and_flag_sig(mod: Module, table: dict[str, str]) -> dict[str, str]:
    """The signature's parameters after the runtime arguments: the boxes' descriptors, then the flags."""
    return {**{r.box.name: _box_sig(r, table) for r in mod.plan.boxed if r.box is not None},
            **dict.fromkeys(mod.flags(), "constexpr")}


def _box_sig(r: Ring, table: dict[str, str]) -> str:
    """A pointer tile's TMA descriptor (``plan.Ring.box``) as a signature type: its tile, its ring's layout."""
    lay = parse_layout(r.layout or "", table)
    assert isinstance(lay, NvmmaShared) and r.box is not None
    return _desc_sig(r.dtype, r.box.shape, dataclasses.replace(lay, transposed=False))    # the box, as TMA writes it


def _block(a: Arg, plan: KernelPlan, table: dict[str, str]) -> tuple[int, ...]:
    shape = list(parse_type(a.type, table).shape)
    if plan.rows is not None and a.name in plan.rows.descriptors:
        shape[plan.rows.descriptors[a.name]] //= plan.subtiles
    return tuple(shape)


def _chains(plan: KernelPlan, chains: bool) -> None:
    """``chains``: an accumulation's previous wgmma is retired under the token of the next one, which consumed it in
    place, not named by its result (``LoopWriter._chain_token``: the route's answer where ptxas serialises them)."""
    plan.chains = chains
    if chains:
        plan.decisions.append("wgmma waits: an accumulation's previous wgmma retired under the next one's token (with "
                              "its result named, ptxas serialised the wgmmas)")


def _persistent_guarded(plan: KernelPlan, tile_loop: TileLoop | None, guards: list[Guard], asked: bool | None) -> bool:
    """``_persistent`` of a kernel with early returns (``guards``): taken per tile only where asked and they can be
    (``_guards_per_tile``: an early return reads the launch's ids), else the kernel is not persistent; the stores
    before them checked first (``_entry_stores_first``)."""
    _entry_stores_first(plan, guards)
    per_tile = bool(asked) and _guards_per_tile(plan, tile_loop, guards)
    return _persistent(plan, tile_loop, per_tile if guards else asked)


def _entry_stores_first(plan: KernelPlan, guards: list[Guard]) -> None:
    """Refuse in one line a store before an early return that comes after a scheduled loop: the kernel writes such
    stores before its guards, before the partitions start (``plain.entry_effects``), where no loop has run."""
    first = min(plan.fn.ops.index(q.loop) for q in plan.sequence)
    late = sorted(i for i in entry_effects(plan.fn.ops, guards) if i > first)
    if late:
        op = plan.fn.ops[late[0]]
        raise UnsupportedError("the Gluon back end writes the stores before an early return before the scheduled loop",
                               where=f"{plan.graph.name}, {source_where(op)}",
                               found=f"{effect_name(op)} after the loop, before an early return")


def _guards_per_tile(plan: KernelPlan, tile_loop: TileLoop | None, guards: list[Guard]) -> bool:
    """Whether the kernel's early returns (which read the launch's program ids: a MoE's block past the padded token
    count, a causal tile above the diagonal) can be taken per tile in a persistent kernel (``kernel.tile_guards``):
    not where the kernel loops over its tiles itself, nor with a reducer partition. Only where asked
    (``--persistent on``; run 76: the GEMMs within 2 %, variable-length attention 6-12 % slower persistent, its
    tiles' work uneven in a static order), nor with stores before an early return (``plain.entry_effects``: every
    program writes them, once, before its guards)."""
    return tile_loop is None and plan.reduction is None and not entry_effects(plan.fn.ops, guards)


def _persistent(plan: KernelPlan, tile_loop: TileLoop | None, asked: bool | None) -> bool:
    """Whether the partitions loop over tiles: always with the kernel's own tile loop (the rings' phases run on
    from tile to tile), else as asked, or (None) where only one CTA fits an SM."""
    if tile_loop is not None:
        return True
    made = [o for o in plan.fn.ops if o.name == "tt.make_tensor_descriptor"]
    if made:             # a descriptor made in the kernel (``ops.make_descriptor``): once a CTA, as Triton's kernel
        plan.decisions.append(f"tensor descriptor(s) made in the kernel ({', '.join(source_where(o) for o in made)}: "
                              "a base the launch cannot give): by each partition that reads one, once a CTA, so not "
                              "persistent (a CTA remaking one per tile could overwrite it under its last tile's copies)")
        return False
    return one_cta_per_sm(plan) if asked is None else asked


def _sibling_decisions(plan: KernelPlan) -> list[str]:
    """One line per loop beside the scheduled one: where it is, and how it is written."""
    out = []
    for q in plan.siblings:
        s = q.schedule
        when = "after" if plan.fn.ops.index(q.loop) > plan.fn.ops.index(plan.loop) else "before"
        tiles = ("its tiles loaded by the partition itself" if plan.own_tiles else
                 "no tile streamed: its loads issued by the consumers in registers, the producer copying nothing "
                 "for it" if not q.rings and plan.producer is not None else
                 "its loads issued by the partition itself in registers (no ring, no producer)" if not q.rings and
                 not any(p.rings for p in plan.sequence) else
                 "its tiles through the same rings (slots and phases run on from the loop before)")
        out.append(f"loop at {source_where(q.loop)} ({when} the scheduled loop): written by the same partitions, {tiles}, in one stage "
                   f"of its own schedule (I={s.ii}, {s.status} among one-stage schedules with each op in the warp "
                   f"group of its row sub-tile)")
    return out


def _plain_decisions(mod: Module) -> list[str]:
    """One line per early return, and per ``if`` outside the scheduled loops: how each is written."""
    per_tile = mod.persistent and mod.tile_loop is None      # ``kernel.tile_guards``
    where = (" per tile in each partition's tile loop (the kernel is persistent, as asked; the first consumer runs "
             "its branch)" if per_tile else " in the kernel itself, before "
             + ("gl.warp_specialize starts the partitions" if mod.plan.producer is not None else "the loop"))
    out = [(f"if at {source_where(g.op)} around the scheduled loop: taken as an early return where its condition "
            + ("fails" if g.negate else "holds") if g.op.name == IF else f"early return at {source_where(g.op)}: taken")
           + where
           + (f" (its branch's {len(g.block.ops)} op(s) written as they run)" if g.block.ops else "")
           + ("; the kernel's own tile loop after it" if mod.tile_loop is not None else
              "" if per_tile else "; not persistent, as a program id decides it (--persistent on takes it per tile)")
           for g in mod.guards]
    out += [f"loop at {source_where(o)} beside the scheduled loop, holding a loop of its own: written as it runs (not "
            "scheduled), by the kernel's one partition" for o in mod.plan.fn.ops if plain_nest(o)]
    entry = mod.entry_effects
    out += [f"if at {source_where(o)}: written as it runs (not scheduled), "
            + ("in the kernel before its early return (its stores run on every path, the programs that return too)"
               if i in entry else "by the partition that needs its results or, for its stores, the first consumer")
            for i, o in enumerate(mod.plan.fn.ops) if o.name == IF]
    stores = [o for i, o in enumerate(mod.plan.fn.ops) if i in entry and o.name != IF]
    if stores and mod.guards:
        out.append(f"{len(stores)} store(s) before the early return (first at {source_where(stores[0])}): written in "
                   "the kernel before it, once (every program runs them, those that return too)")
    elif stores:
        out.append(f"{len(stores)} store(s) or atomic(s) before the kernel's own tile loop (first at "
                   f"{source_where(stores[0])}): written in the kernel before it, once, not again for each tile")
    return out


def _own_tile_loop(mod: Module) -> list[str]:
    if mod.tile_loop is None:
        return []
    own = ("its loops do not step over the launch's programs (each program loops over its own work, as torchtitan's "
           "MoE weight gradient over its token groups), so the launch's grid is the kernel's")
    ctas = (own + " and two CTAs share an SM" if mod.plan.two_ctas else
            "the registers not halved for two CTAs per SM (a kernel looping over its tiles is launched with about one "
            "program per SM, so a second CTA has no tile to run)" if grid_strided(mod.plan.fn, mod.tile_loop) else own)
    phases = ("the ring and turn phases run on from tile to tile, so the producer loads the next tile's operands "
              "while the consumers finish this one; " if mod.plan.producer is not None else "")
    return [OWN_TILE_LOOP + " (its bounds and grid as written), kept around each partition's loop; " + phases + ctas]


def _carried_rows(plan: KernelPlan, tile_loop: TileLoop | None, name: str) -> None:
    """The row dimension of each tile the kernel's own nest carries (``TileLoop.tensors``), where the rows are split
    among consumers: its hand-on's (an ``if``'s branch values, a ``for``'s initial and yielded values), as the
    scheduled loop's row split gives them, so that each consumer holds its sub-tiles' rows of it across the nest
    (``Source.held_as``). Several consumers holding one tile whole (no row split) are refused in one line."""
    if tile_loop is None or not tile_loop.tensors:
        return
    if plan.rows is None:
        if len(plan.consumers) > 1:
            raise UnsupportedError("the Gluon back end keeps a tile the kernel's own loop carries in one consumer, "
                                   "or split by rows among several", where=f"{name}, "
                                   f"{source_where(tile_loop.levels[0].op)}", found=f"{len(plan.consumers)} consumers")
        return
    dims = plan.rows.dims
    links = [(r, (a, b)) for lv in tile_loop.levels for r, a, b in lv.branches] + \
            [(a, (i, y)) for lv in tile_loop.levels for a, i, y in lv.carried]
    changed = True
    while changed:
        changed = False
        for v, (x, y) in links:
            if v in tile_loop.tensors and v not in dims:
                d = dims.get(x, dims.get(y))
                if d is not None:
                    dims[v] = d
                    changed = True
            for w in (x, y):            # the hand-on's values carry the tile's rows too
                if v in dims and w not in dims and plan.fn.types.get(w, "").startswith("tensor"):
                    dims[w] = dims[v]
                    changed = True


def grid_strided(fn: Function, tile_loop: TileLoop | None) -> bool:
    """Whether the kernel's own loops step over the launch's programs, launched with about one program an SM: a
    bound, step or initial value of one of its loops computed from ``tl.num_programs`` (FlagGems' var_mean over
    ``cdiv(tasks, num_programs)`` row tiles); a ``for`` starting at ``tl.program_id`` up to a bound that is not (a
    persistent kernel's ``tl.range(pid, tiles, NUM_SMS)``); a ``while`` from its program's first tile, or a ``for``
    carrying it (a grouped GEMM's). Not a ``for`` over the program's own range, both bounds from ``tl.program_id`` or from what it loads
    (a k-means split's chunks ``range(c0, c1)``, scattermoe's experts ``range(tl.min(E), tl.max(E) + 1)`` of its rows'
    loaded ids): such a launch has a program per piece of work, many an SM. Loads end the walk back."""
    if tile_loop is None:
        return False
    loads = {i for i, o in enumerate(fn.ops) if o.name == "tt.load"}

    def reaches(values: set[str], names: tuple[str, ...]) -> bool:
        return any(fn.ops[i].name in names for i in closure(fn.ops, values, loads) if i not in loads)

    pid, nprog = ("tt.get_program_id", "tt.get_num_programs"), ("tt.get_num_programs",)
    for lv in tile_loop.levels:
        if lv.test is not None:
            continue
        if lv.iv is None:            # a while: its carried values' starts and its condition
            if reaches({c[1] for c in lv.carried} | {v for o in lv.cond for v in o.operands}, pid):
                return True
            continue
        lb, ub, step = lv.bounds or (None, None, None)
        inits = {c[1] for c in lv.carried}
        if reaches({lb, ub, step} - {None} | inits, nprog) or reaches(inits, pid):   # or a tile index it carries
            return True                                                             # from its program's (grouped GEMM)
        if lb is not None and reaches({lb}, pid) and not (ub is not None and reaches({ub}, pid)):
            return True
    return False


def _tile_loop(fn: Function, graph: LoopGraph) -> tuple[Function, TileLoop | None]:
    """A kernel that loops over its tiles itself (a persistent kernel: ``for tile in range(pid, tiles, NUM_SMS)``
    around the scheduled loop; a grouped GEMM: a loop over groups, a ``while`` over a group's tiles) as the
    function of one tile plus its nest of loops: the loops' bodies in their place, outermost first (``persist``
    writes the nest back around each partition's code); ``fn`` as it is otherwise."""
    loop = _graph_loop(fn, graph)
    if loop is None or loop in fn.ops:
        return fn, None
    path = _nest_path(fn.ops, loop)
    if path and path[0].name == IF:     # an if around the nest: the kernel's guards (``guarding_ifs``), not a level
        return fn, None
    if not path:
        return fn, None
    at = fn.ops.index(path[0])
    where = f"{graph.name}, {source_where(path[0])}"
    levels = tuple(tile_level(fn, op) for op in path)
    tensors = _carried_tiles(fn, levels, graph.name)
    after = [o for o in fn.ops[at + 1:] if o.name != "tt.return"]
    outer = levels[0]       # the ops after the nest read its results as its carried arguments (``_nest_lines``)
    after = [renamed_op(o, {r: a for r, (a, _, _) in zip(outer.op.results, outer.carried)}) for o in after]
    body = _flat_body(path, loop, graph.name)
    ret = [o for o in fn.ops[at + 1:] if o.name == "tt.return"]
    flat = Function(fn.name, fn.args, dataclasses.replace(fn.module, ops=fn.ops[:at] + body + after + ret), fn.types)
    return flat, TileLoop(levels, tuple(after), frozenset(tensors), before=at,
                          control_effect=_control_effect(levels, body))


def _control_effect(levels: tuple[Level, ...], body: list[IROp]) -> IROp | None:
    """The first op writing memory whose result the nest's control reads (a level's condition, its carried values, an
    if's test and results), or None: every partition runs the nest's control to know its tile, so each would run that
    op (aiter's work-stealing grouped GEMM: its next tile from ``tl.atomic_add`` on a counter, taken by the producer
    and the consumer each, the counter advanced twice a tile, the tiles they held different)."""
    want: set[str] = set()
    for lv in levels:
        want |= {y for _, _, y in lv.carried} | {v for o in lv.cond for v in o.operands}
        want |= ({lv.test} if lv.test else set()) | {v for _, t, e in lv.branches for v in (t, e)}
    ops = body + [o for lv in levels for o in lv.cond]
    bad = [ops[i] for i in sorted(closure(ops, want)) if effectful(ops[i])]
    return (bad or [o for lv in levels for o in lv.cond if effectful(o)] or [None])[0]


def _carried_tiles(fn: Function, levels: tuple[Level, ...], name: str) -> set[str]:
    """The tiles the nest carries from tile to tile (torchtitan's MoE weight gradient: the [N, K] accumulator summed
    over every group of the expert, ``if group_expert == expert_id`` around the scheduled loop over the group's
    rows): each ``for`` level's tile arguments and each ``if``'s tile results, where every level is a ``for`` or an
    ``if`` (a ``while``'s carried tiles are refused in one line)."""
    out: set[str] = set()
    for lv in levels:
        tiles = [a for a in ([a for a, _, _ in lv.carried] + [r for r, _, _ in lv.branches])
                 if fn.type_of(a).startswith(("tensor", "!ttg.memdesc"))]
        if tiles and (lv.iv is None and lv.test is None or fn.type_of(tiles[0]).startswith("!ttg.memdesc")):
            raise UnsupportedError("the Gluon back end keeps a tile loop carrying scalars only from tile to tile, "
                                   "or tiles in registers through its for and if levels",
                                   where=f"{name}, {source_where(lv.op)}", found=f"{tiles[0]} : {fn.type_of(tiles[0])}")
        out |= set(tiles)
    return out


def _region(op: IROp) -> list[IROp]:
    """The ops of a nest level's body: an scf.for's, an scf.while's second region's, an scf.if's then branch."""
    if op.name == vocab.LOOP:
        return op.body.ops if op.body is not None else []
    if op.name == IF:
        return op.regions[0].ops if op.regions else []
    return op.regions[1].ops if op.name == vocab.WHILE and len(op.regions) == 2 else []


def _nest_path(ops: list[IROp], loop: IROp) -> list[IROp]:
    """The loops (scf.for, scf.while) from ``ops`` down to the one whose body holds ``loop``, outermost first;
    empty where ``loop`` is not reached through loops alone."""
    for op in ops:
        inner = _region(op)
        if loop in inner:
            return [op]
        sub = _nest_path(inner, loop) if inner else []
        if sub:
            return [op] + sub
    return []


def _flat_body(path: list[IROp], loop: IROp, name: str) -> list[IROp]:
    """The nest's bodies in program order, each inner loop replaced by its own body (the scheduled loop kept); a
    store in an outer loop's body (not the one holding the scheduled loop) is refused in one line: written with
    the tile's code, it would run once per tile."""
    ops = [o for o in _region(path[0]) if o.name != vocab.YIELD]
    if len(path) == 1:
        return ops
    stored = [o for o in ops if o is not path[1] and effectful(o)]
    if stored:
        raise UnsupportedError("the Gluon back end writes stores in the body of the loop around the scheduled loop "
                               "only", where=f"{name}, {source_where(stored[0])}",
                               found=f"{stored[0].name} in an outer loop of the nest")
    at = ops.index(path[1])
    return ops[:at] + _flat_body(path[1:], loop, name) + ops[at + 1:]


def _graph_loop(fn: Function, graph: LoopGraph) -> Any:
    """The loop the graph was built from (``loop_index`` among the module's loops), or None."""
    loops = fn.module.loops()
    index = graph.get("loop_index")
    return loops[index] if isinstance(index, int) and index < len(loops) else None


def sibling_loops(ttgir: str, graph: LoopGraph) -> list[int]:
    """The module indices (``Module.loops``) of the loops beside the scheduled one: at the top of the function,
    or of the body of the kernel's own tile loop, as the scheduled loop is (causal attention's loop over the
    diagonal block after the loop over the blocks before it)."""
    fn, tile_loop, _ = kernel_function(ttgir, graph)
    loop = _graph_loop(fn, graph)
    loops = fn.module.loops()
    late = tile_loop.after if tile_loop is not None else ()     # after the kernel's own tile loop: as they run
    return [loops.index(o) for o in fn.ops if o.name == vocab.LOOP and o is not loop and o in loops
            and not plain_for(o) and not plain_nest(o) and not any(o is a for a in late)]


_DEF = re.compile(r"(%[\w$.\-]+)(?::\d+)?\s*=")


def _names(ttgir: str, graph: LoopGraph, siblings: bool) -> str:
    """``ttgir`` with the names the generated Python needs distinct: each sibling loop's, each branch's, and for a
    split kernel each range and broadcast per reader (the rows as the route's analysis found them,
    ``distinct_ranges``)."""
    ttgir = distinct_plain_loop_names(distinct_loop_names(ttgir, graph) if siblings else ttgir, graph)
    ttgir = distinct_branch_names(ttgir, _loop_span(ttgir, graph))
    return distinct_ranges(ttgir) if int(graph.get("row_split") or 1) > 1 else ttgir


def _loop_span(ttgir: str, graph: LoopGraph) -> tuple[int, int] | None:
    """The scheduled loop's first and last line in ``ttgir`` (0-based; its ``loop_index`` among the module's loops, as
    ``_graph_loop``), or None where the text has no such loop."""
    index = graph.get("loop_index")
    spans = [o.span for o in ttgir_loops(ttgir.splitlines())]
    return spans[index] if isinstance(index, int) and 0 <= index < len(spans) else None


def distinct_loop_names(ttgir: str, graph: LoopGraph) -> str:
    """``ttgir`` with the values defined inside each loop beside the scheduled one (``sibling_loops``)
    renamed where another loop's body defines the same name (MLIR scopes names by region, so causal
    attention's two loops both hold a ``%k``; the generated Python has one scope): ``%k`` becomes ``%k_l<i>``,
    ``i`` the loop's module index. The scheduled loop's names stay (its graph's ops name them)."""
    return _renamed_loops(ttgir, sibling_loops(ttgir, graph))


def distinct_plain_loop_names(ttgir: str, graph: LoopGraph) -> str:
    """``ttgir`` with the names of every other loop written as it runs (``plain_for``, a loop inside an ``if``: not
    the scheduled loop, not one around it, not a sibling) made distinct as ``distinct_loop_names`` does: sglang's
    KV-slot writer has a scalar prefix sum ``for i in range(pid)`` (an i32 ``%i``) between two copy loops over i64
    ``%i``, and the scheduled loop's trip count, typed by its ``%i``, had come out i64 in one loop and i32 in the
    other ("initial value for `twill_b` is of type int64[], but the then block redefines it as int32[]")."""
    spans = [o.span for o in ttgir_loops(ttgir.splitlines())]
    own = _loop_span(ttgir, graph)
    if own is None:
        return ttgir
    siblings = set(sibling_loops(ttgir, graph))
    plain = [i for i, (a, b) in enumerate(spans) if i not in siblings and not a <= own[0] <= own[1] <= b]
    return _renamed_loops(ttgir, plain)


def _renamed_loops(ttgir: str, indices: list[int]) -> str:
    """``ttgir`` with each name that loop ``i`` of ``indices`` (a module loop index) defines renamed ``%k_l<i>``
    where another loop defines it too."""
    if not indices:
        return ttgir
    lines = ttgir.splitlines()
    spans = [o.span for o in ttgir_loops(lines)]
    taken = set(re.findall(r"%[\w$.\-]+", ttgir))

    def defined(span: tuple[int, int]) -> set[str]:
        first, last = span
        head = lines[first].split("scf.for", 1)[1] if "scf.for" in lines[first] else ""
        return ({m.group(1) for ln in lines[first + 1:last] for m in [_DEF.search(ln)] if m}
                | set(re.findall(r"(%[\w$.\-]+)\s*=", head)))
    defs = [defined(sp) for sp in spans]
    for i in indices:
        clash = {v for v in defs[i] if any(v in d for j, d in enumerate(defs) if j != i)}
        rename = {}
        for v in sorted(clash):
            new = f"{v}_l{i}"
            while new in taken:
                new += "x"
            taken.add(new)
            rename[v] = new
        if not rename:
            continue
        pattern = re.compile("(?:" + "|".join(re.escape(v) for v in sorted(rename, key=len, reverse=True)) + r")(?![\w$.\-])")
        first, last = spans[i]
        head, sep, tail = lines[first].partition("scf.for")
        lines[first] = head + sep + pattern.sub(lambda m: rename[m.group(0)], tail)
        for k in range(first + 1, last + 1):
            lines[k] = pattern.sub(lambda m: rename[m.group(0)], lines[k])
    return "\n".join(lines) + ("\n" if ttgir.endswith("\n") else "")


def structure(ttgir: str, graph: LoopGraph) -> None:
    """Raise the back end's refusal of the kernel's structure (an early return after a store, a branch it cannot
    read, an early return inside its own tile loop) before any schedule is solved: it does not depend on one
    (the sweep's top-k router waited 380 s of solves for it; Apple's CCE 22 s for its spin lock's ``while``)."""
    fn, _, _ = kernel_function(launch_descriptors(_names(ttgir, graph, False), graph.name)[0], graph)
    loop = _graph_loop(fn, graph)
    _scheduled_loop(fn, graph, [o for o in fn.ops if o.name == vocab.LOOP and o is not loop])


def kernel_function(ttgir: str, graph: LoopGraph) -> tuple[Function, TileLoop | None, list[Guard]]:
    """The kernel's function as the back end writes it: its early returns taken out (``plain.early_returns``,
    written before the partitions start), and its own tile loop, if it has one, flattened (``_tile_loop``)."""
    fn = read_function(ttgir, graph.name)
    ops, guards = early_returns(fn.ops, ttgir, graph.name)
    loop = _graph_loop(fn, graph)
    if loop is not None:
        ops, guards = guarding_ifs(ops, loop, guards, graph.name)
    if guards:
        fn = Function(fn.name, fn.args, dataclasses.replace(fn.module, ops=ops), fn.types)
    nested = fn
    fn, tile_loop = _tile_loop(fn, graph)
    if guards and tile_loop is not None:
        # an early return before the kernel's own tile loop (Inductor's persistent template: `if M * N == 0:
        # return`) runs before the partitions start, as without one: the nest keeps the launch's program ids, and
        # flattening the nest leaves the ops before it where the guards' places say
        late = [g for g in guards if g.at > tile_loop.before]
        if late:
            raise UnsupportedError("the Gluon back end writes an early return before the kernel's own tile loop",
                                   where=f"{graph.name}, {source_where(late[0].op)}", found="the tile loop before it")
    if tile_loop is not None:
        _once_before_nest(nested.ops[:tile_loop.before], graph, guards)
    return fn, tile_loop, guards


def read_together(ttgir: str, graph: LoopGraph) -> tuple[tuple[str, str], ...]:
    """Pairs of the graph's nodes whose loop results one side effect after the loop reads together (a SwiGLU GEMM's
    ``silu(gate) * up`` stored once): the consumer writing it must compute both (``kernel._post_ops``), so the joint
    problem keeps each pair on one compute group (``JointOptions.together``; Liger's fused MoE up-projection, 8 warps
    over 64 rows: each accumulator in a group of its own had left no partition holding both, and no kernel). Base
    node ids; none where the loop is not the kernel function's own (the back end refuses those apart)."""
    try:
        fn, _, _ = kernel_function(ttgir, graph)
    except UnsupportedError:
        return ()
    loop = _graph_loop(fn, graph)
    if loop is None or loop not in fn.ops or loop.body is None:
        return ()
    body = loop.body.ops
    yld = next((o for o in body if o.name == vocab.YIELD), None)
    if yld is None:
        return ()
    node, defined = node_of_op(graph, body), {r: i for i, op in enumerate(body) for r in op.results}
    producer = {res: node.get(defined[y]) for res, y in zip(loop.results, yld.operands) if y in defined}
    after = fn.ops[fn.ops.index(loop) + 1:]
    pairs: list[tuple[str, str]] = []
    for i, op in enumerate(after):
        if effectful(op):
            deps = {v for j in closure(after, set(op.operands)) | {i} for v in after[j].operands}
            nodes = sorted({n for r in deps if (n := producer.get(r))})
            pairs += [(nodes[0], n) for n in nodes[1:]]
    return tuple(dict.fromkeys(pairs))


def _once_before_nest(before: list[IROp], graph: LoopGraph, guards: list[Guard]) -> None:
    """Refuse in one line a loop among ``before`` (the ops before the kernel's own tile loop) that writes memory after
    the kernel's early returns: each partition writes the code before the nest again for every tile (what it computes
    is the same each time), so its writes would run once per tile. A store or atomic there, or an if holding them, the kernel writes once before
    the partitions start (``Module.entry_effects``)."""
    first = max((g.at for g in guards), default=0)
    looped = [o for o in before[first:] if effectful(o) and (o.name in (vocab.LOOP, vocab.WHILE) or any(
        n.name in (vocab.LOOP, vocab.WHILE) for n in o.nested()))]
    if looped:
        raise UnsupportedError("the Gluon back end writes the loops before the kernel's own tile loop once per tile, "
                               "so none of them may write memory", where=f"{graph.name}, {source_where(looped[0])}",
                               found=f"{looped[0].name} writing memory before the tile loop")


def _scheduled_loop(fn: Any, graph: LoopGraph, siblings: Sequence[Any] = ()) -> Any:
    loop = _graph_loop(fn, graph)
    if loop is None or loop not in fn.ops:
        outer = _enclosing(fn.ops, loop)
        at = outer if outer is not None else loop
        # no op holds it: the loop sits in a block of unstructured control flow, which Triton emits for an if whose
        # branches both return (Triton-distributed's grouped GEMM: ``return helper(...)`` in each arm)
        blocks = outer is None and "cf.cond_br" in fn.module.text
        raise UnsupportedError("the Gluon back end writes a kernel whose scheduled loop is at the top of the "
                               "function or inside the kernel's own loops (for, while) alone",
                               where=f"{graph.name}, {source_where(at)}" if at is not None else graph.name,
                               found=f"the loop inside {outer.name}" if outer is not None else
                               "the loop in a block of a cf.cond_br (an if whose branches both return: return "
                               "after the if instead)" if blocks else "the loop inside another op")
    others = [o for o in fn.ops if (o.name in vocab.CONTROL_FLOW and o.name != IF and not _plain_while(o))
              or (o.name == vocab.LOOP and o is not loop and o not in siblings and not plain_for(o)
                  and not plain_nest(o))]
    if others:
        raise UnsupportedError("the Gluon back end writes one loop and straight-line code around it",
                               where=f"{graph.name}, {source_where(others[0])}", found=others[0].name)
    return loop


def _enclosing(ops: list[IROp], loop: Any) -> IROp | None:
    """The op that keeps ``loop`` out of the nest the back end writes: the first op on the way down to it that is
    not an scf.for or scf.while (Unsloth's MoE GEMM: ``if m_size > 0`` between its loop over experts and its
    ``while`` over an expert's tiles), else the outermost op holding it; None where no op of ``ops`` holds it."""
    def path(within: list[IROp]) -> list[IROp]:
        for op in within:
            inner = [o for r in op.regions for o in r.ops] + (op.body.ops if op.body is not None else [])
            if loop in inner:
                return [op]
            sub = path(inner) if inner else []
            if sub:
                return [op] + sub
        return []
    found = path(ops)
    return next((o for o in found if o.name not in (vocab.LOOP, vocab.WHILE)), found[0] if found else None)


def _plain_while(op: Any) -> bool:
    """A ``while`` the partitions write as it runs (``plain._while``): straight-line code in its regions, no loop,
    dot, store or TMA copy (vLLM's binary search over the packed sequences' starts)."""
    if op.name != "scf.while":
        return False
    inner = [o for r in op.regions for o in r.ops]
    return not any(o.name in vocab.DOTS | vocab.STORES | vocab.TMA_LOADS | {vocab.LOOP, "scf.while"} for o in inner)


def plain_for(op: Any) -> bool:
    """A ``for`` beside the scheduled loop that every partition writes as it runs, as straight-line code (``plain._for``):
    scalars alone in and out, no tile, dot, store, atomic or TMA copy, no loop inside (a MoE grouped GEMM's search of
    the cumulative expert offsets for its program's expert, whose results the producer's addresses read too)."""
    if op.name != vocab.LOOP or op.body is None or any("tensor<" in t for t in op.result_types):
        return False
    inner = [o for o in op.body.ops for o in (o, *o.nested())]
    return not any(o.name in vocab.DOTS | vocab.STORES | vocab.TMA_LOADS | {vocab.LOOP, "scf.while", "tt.atomic_rmw",
                                                                            "tt.atomic_cas"}
                   or any("tensor<" in t for t in o.result_types) for o in inner)


def plain_nest(op: Any) -> bool:
    """A ``for`` beside the scheduled loop holding a loop of its own (FlagGems' batch-norm backward: its second pass
    over the batch and the spatial extent after the first pass's nest; FlashInfer's top-k renorm: the vocabulary pass
    inside a bisection): written as it runs (``plain._for``) by a kernel of one partition, which holds every value it
    reads and writes; no TMA copy in it."""
    if op.name != vocab.LOOP or op.body is None:
        return False
    inner = [o for o in op.body.ops for o in (o, *o.nested())]
    return (any(o.name in (vocab.LOOP, "scf.while") for o in inner)
            and not any(o.name in vocab.TMA_LOADS or o.name == "tt.descriptor_store" for o in inner))


def one_cta_per_sm(plan: KernelPlan) -> bool:
    """Whether the kernel's shared memory or registers leave room for only one CTA per SM: then no other
    CTA runs while one loads its first tiles or stores its results, and a persistent kernel (the
    producer loading the next tile's operands during the consumers' epilogue) hides that time."""
    m = plan.machine
    regs = sum(p.warps * 32 * p.regs for p in plan.partitions)
    return 2 * plan.smem_bytes > m.smem_per_cta or 2 * regs > REG_FILE


def _handoff(mod: Module) -> list[str]:
    """What a persistent kernel with a producer does across tiles besides the rings, one line each."""
    if not mod.tile_loads:
        return []
    tiles = ", ".join(sorted({t.key for t in mod.tile_loads}))
    stores = ("its results are stored through buffers of their own, and each store is waited for only before "
              "the next tile's" if mod.own_stores else
              "a store after the loop reuses a loaded tile's buffer (no room for one of its own), so that tile "
              "is handed back only after its store")
    return [f"per-tile tiles ({tiles}) loaded by the producer, the next tile's as soon as each consumer's loop "
            f"is done, so they arrive during this tile's epilogue; {stores}"]


def _turn(plan: KernelPlan, part: int, mod: Module | None = None) -> Turn:
    at = {d: (g, i == 0, i == len(dots) - 1) for g, (p, dots) in enumerate(plan.tc_runs) if p == part
          for i, d in enumerate(dots)}
    first = max(p.stages for p in plan.consumers) - 1
    # persistent: the steady bodies of the tiles before, each of which ran twill_n >= first iterations
    # (the protocol's least trip count), ``first`` of them outside the steady loop
    persistent = mod is not None and mod.persistent
    return Turn(at, len(plan.tc_runs), first, f"twill_base - {first} * ({mod.tile_count})" if persistent else "")


def _one_partition(plan: KernelPlan, p: Any) -> str:
    """The decision line of a kernel of one partition: who loads the dots' tiles, how far ahead."""
    direct = any(a.alloc is not None for a in plan.asyncs)
    ahead = ("in their readers' stage" if plan.schedule.get("loads_ahead") == 0 else
             f"{plan.prefetch} stage(s) ahead of their readers" if direct else "a stage ahead of their readers")
    what = (("the dots' tiles copied by its own warps with cp.async into the buffers the wgmma reads"
             if direct else "the dots' tiles loaded by its own warps and stored to shared memory for the wgmma")
            + ", as Triton's one partition does: where cp.async cannot copy them at any launch (no address known "
            "aligned), a later loop loads tiles no ring of this loop's streams, the loop runs at most two "
            "iterations a CTA, or --own-tiles on asks" if plan.own_tiles else
            "nothing to stream: the loop's loads are pointer loads its own warps issue")
    return (f"one partition, no producer ({what}, {ahead}; {p.stages} stages), so no warp_specialize: {p.warps} "
            f"warps, registers as ptxas allocates them (the schedule's tiles need about {p.need_regs} per thread)")


def _recurrent_loads(plan: KernelPlan) -> list[str]:
    """The decision line of the pointer loads kept where the schedule has them (``plan.self_recurrent``)."""
    if not plan.recurrent:
        return []
    names = ", ".join(sorted(plan.node_of.get(i, py_name(plan.body[i].results[0])) for i in plan.recurrent))
    return [f"pointer load(s) {names} where the schedule has them, not a stage ahead of their readers: the address "
            "reads what the previous iteration computed from the loaded value (a search's pivot), so a load issued "
            "earlier would read the pivot of two iterations back"]


def _decisions(plan: KernelPlan, turns: bool, persistent: bool = False, serpentine_order: bool = False) -> list[str]:
    """What the generated kernel does and which part of the schedule decided it, one line each."""
    out = []
    if plan.subtiles > 1:
        out.append(f"rows: {plan.rows.rows if plan.rows else '?'} split into {plan.subtiles} sub-tiles of "
                   f"{(plan.rows.rows // plan.subtiles) if plan.rows else '?'} (the rows are independent; the "
                   "joint search chose the split)")
    red = plan.reduction
    half = red.rows // 2 if red is not None else 0
    shared = red is not None and red.shared_lag is not None
    for p in plan.partitions:
        loads = " and ".join(x for x in ("TMA loads" if any(not r.copied for r in plan.rings) else "",
                                         "cp.async copies" if any(r.copied for r in plan.rings) else "") if x)
        what = (f"{loads or 'loads'} into the rings" + (f"; adds rows {half}-{red.rows - 1} of the partials, {red.shared_lag} "
                                              "iterations behind its loads" if shared else "")
                if p.role == "producer" else
                "sums the sub-tiles' partials and adds them atomically"
                + (f" (rows 0-{half - 1})" if shared else "") if p.role == "reducer" else
                f"sub-tile{'s' if len(p.subtiles) > 1 else ''} {', '.join(str(s) for s in p.subtiles)}"
                if plan.subtiles > 1 else "the loop's compute")
        if len(plan.partitions) == 1:
            out.append(_one_partition(plan, p))
            continue
        out.append(f"partition {p.index} ({'default' if p.index == 0 else 'worker'}): {p.role}, warp group "
                   f"{p.group}, {p.warps} warps, {p.regs} registers per thread (needs about {p.need_regs}): "
                   f"{what}" + (f", {p.stages} stages" if p.role == "consumer" else ""))
    out += _recurrent_loads(plan)
    for r in plan.rings:
        out.append(f"ring {r.name}: {r.depth} buffers of {list(r.shape)} {r.dtype} (the loads run "
                   f"{r.depth - 1} iteration(s) ahead), read by partition(s) {', '.join(map(str, r.readers))}")
    for b in plan.staging.buffers:
        if b.layout is not None:
            out.append(f"shared operand {b.name}: partition {b.part} stores the loop's {list(b.shape)} {b.dtype} "
                       f"register tile (a ttg.local_alloc: wgmma reads it from shared memory) into {b.depth} buffers, "
                       "one per iteration a wgmma may still read, so no store waits for a wgmma")
            continue
        readers = sorted({plan.node_of.get(j, f"op {j}") + (" (transposed)" if perm else "")
                          for j, (v, perm) in plan.staging.reads.items() if v == b.value})
        out.append(f"staged operand {b.name}: partition {b.part} stores the {list(b.shape)} {b.dtype} tile once per "
                   f"iteration in shared memory, read there by {', '.join(readers)} (its registers freed for the wgmma "
                   "pipeline: ptxas ran out of registers with it in registers)")
    order = " | ".join(f"partition {p} ({len(d)} dot{'s' if len(d) > 1 else ''})" for p, d in plan.tc_runs)
    if turns:
        out.append(f"tensor-core order per iteration (the schedule's slots), kept by turn barriers: {order}")
    elif len({p for p, _ in plan.tc_runs}) > 1:
        out.append(f"tensor-core order: the schedule's slots ({order}) are not enforced; each consumer issues its "
                   "GEMMs when ready (turn barriers, `--tc-order`, ran the H200's FA forward 6-7 % slower)")
    if persistent:
        why = (" (only one CTA fits an SM, so no other CTA hides a CTA's first loads and its epilogue)"
               if one_cta_per_sm(plan) else "")
        per_sm = "two CTAs per SM (grid min(tiles, 2 x SMs))" if plan.two_ctas else "one CTA per SM (grid min(tiles, SMs))"
        out.append(f"persistent{why}: {per_sm} loops over the launch grid's tiles, "
                   "axis 0 fastest; the ring and turn phases run on from tile to tile, so the producer loads the "
                   "next tile's operands while the consumers finish this one")
    if serpentine_order:
        out.append("tiles in serpentine order along axis 0 (every other pass backwards): a loop's bounds read axis 0's "
                   "program id, so a tile's work may vary along it, and the programs' sums of heavy and light tiles "
                   "even out (`kernel.serpentine`)")
    if red is not None:
        out.append(f"reducer: {plan.node_of.get(red.op, 'the atomic add')} adds a partial sum over the split rows "
                   f"({red.rows} x {red.cols} {red.dtype}) at addresses every sub-tile shares: each consumer stores "
                   f"its partial into a shared buffer of its own (rows padded by {RED_PAD} words) and the reducer "
                   f"issues one atomic add per element for the CTA ({plan.subtiles}x fewer, none in the consumers; "
                   "by hand in run 17 the FA backward ran 5-8 % faster so than with the consumers' own atomics)"
                   + ("; the one-warp producer, which mostly waits, adds the lower half of the rows "
                      f"{red.shared_lag} iterations behind its own loads (run 18c: +2.4-5.5 % on the FA backward)"
                      if red.shared_lag is not None else ""))
    if red is not None and red.split is not None:
        dot = plan.node_of.get(red.split.dot, "its dot")
        out.append(f"columns split (FlashAttention-3's dQ): each consumer computes {red.split.width} of the {red.cols} "
                   f"columns of {dot} over every sub-tile's rows (its own staged {red.split.a.lstrip('%')} first, then "
                   "the others' as each is stored: `twill_xs_ready`, handed back by `twill_xs_free`), so the partial it "
                   "stores is the CTA's and the reducer adds one buffer without summing (run 107, by hand: the FA "
                   "backward 8.8 % faster)")
    if plan.reducer_dropped:
        out.append("no reducer: its warp group's registers would leave the consumers fewer than their tiles need, "
                   "so each consumer adds its own partial atomically")
    out.append(f"shared memory: {plan.smem_bytes} bytes planned of {plan.machine.smem_per_cta}; maxnreg "
               f"{plan.maxnreg if plan.maxnreg is not None else 'unset (ptxas allocates)'}")
    return out


def _trees(mod: Module) -> list[str]:
    if not mod.trees:
        return []
    return ["row reductions written as a tree over each thread's registers, then the lanes' shuffles (Triton reduces "
            "a thread's values as one chain of dependent ops): " + "; ".join(dict.fromkeys(mod.trees))]


def _compact(mod: Module) -> list[str]:
    if not mod.compact:
        return []
    return ["pointer loads held across the iteration in a compact layout (the prefetched value is converted to its "
            "readers' layout where it is read; in theirs, each thread would hold a replicated copy): "
            + "; ".join(dict.fromkeys(mod.compact))]


def _narrow_loads(plan: KernelPlan, mod: Module, table: dict[str, str], assumed: tuple[str, ...] = ()) -> list[str]:
    """A hint where the loop's pointer loads into registers move fewer than 16 bytes per thread per access along
    their contiguous dimension and an integer stride argument is a runtime value: Triton's launcher specialises an
    integer passed as 1 as that constant, and a load along a unit stride is contiguous, which a kernel written for
    any stride cannot know (gemlite's int4 GEMM x0.27 -> x0.92 with its unit strides declared, run 61). Integers not
    known 16-divisible need no hint: the kernel is written from the layouts Triton gives them divisible where that
    widens its loads (``frontend.widened``); a stride known (or ``assumed``) 16-divisible is no unit stride."""
    copied = {r.load for r in plan.rings if r.copied}
    narrow: list[str] = []
    read: set[str] = set()      # the values the narrow loads' addresses are computed from
    along: set[str] = set()     # the scalars they splat over a tile (a stride times a tile's offsets)
    for q in plan.sequence:
        for i, op in enumerate(q.loop.body.ops):
            if op.name != "tt.load" or not op.result_types or (q.loop is plan.loop and i in copied):
                continue
            t = parse_type(op.result_types[0], table)
            if t.kind != "tensor" or not isinstance(t.layout, Blocked):
                continue
            c = t.layout.order[0]
            size = TypeInfo("regs", (1,), t.dtype).bytes
            held = t.layout.size_per_thread[c] * size
            # one element a thread along it: Triton knew no contiguity there, which a unit stride gives; more than
            # one, the tile's shape over the threads narrowed it, which no stride changes (lightllm's fp8 MLA decode,
            # 8 bytes a thread: the hint had named a row stride of 578)
            if held < 16 and t.shape[c] * size >= 16 and t.layout.size_per_thread[c] == 1:
                narrow.append(f"{op.results[0].lstrip('%')} ({held} bytes)")
                values, tiled = _address_values(plan, op.operands[0])
                read |= values
                along |= tiled
    strides = [a for a in mod.runtime_args()
               if re.fullmatch(r"i(32|64)", a.type) and "stride" in py_name(a.name).lower()
               and (not a.divisible or a.name.lstrip("%") in assumed) and a.name in along]
    strides = [py_name(a.name) for a in strides]   # a stride over a tile's offsets (not a row's scalar offset)
    if not narrow or not strides:
        return []
    return [f"pointer loads in narrow vectors: {', '.join(dict.fromkeys(narrow))} per thread and access; a stride that "
            f"launches pass as 1 ({strides[0]}?) Triton's launcher specialises as that constant, and a load along it "
            f"is contiguous: say so (--const {strides[0]}=1, TWILL_SPEC's constexprs)"]


def _address_values(plan: KernelPlan, ptr: str) -> tuple[set[str], set[str]]:
    """The values address ``ptr`` is computed from, at any depth of the kernel's regions, through loop-carried
    values (a loop's argument: its initial value and what its body hands on): so the arguments it reads; and the
    scalars among them splat over a tile (``offs * stride``: a stride along one of the tile's dimensions, where
    ``row * stride`` is a scalar's)."""
    ops = [o for top in plan.fn.ops for o in [top, *top.nested()]]
    defs = {r: o for o in ops for r in o.results}
    carried: dict[str, list[str]] = {}
    for o in ops:
        if o.name == "scf.for" and o.body is not None:
            ends = [e for e in o.body.ops if e.name == "scf.yield"]
            hands = list(ends[-1].operands) if ends else []
            for k, (a, init) in enumerate(zip(o.body.args[1:], o.body.inits)):
                carried[a] = [init] + hands[k:k + 1]
    seen: set[str] = set()
    todo = [ptr]
    while todo:
        v = todo.pop()
        if v in seen:
            continue
        seen.add(v)
        todo += list(defs[v].operands) if v in defs else carried.get(v, [])
    return seen, {defs[v].operands[0] for v in seen if v in defs and defs[v].name == "tt.splat" and defs[v].operands}


def load_module(source: str, directory: str | Path, name: str = "kernel_gluon") -> Any:
    """Write ``source`` to ``directory``/``name``.py and import it (``@gluon.jit`` reads its source file)."""
    path = Path(directory) / f"{name}.py"
    path.write_text(source)
    mod_name = f"twill_gluon_{abs(hash((str(path), source))) % 10**12}"
    spec = importlib.util.spec_from_file_location(mod_name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = mod
    spec.loader.exec_module(mod)        # type: ignore[union-attr]
    return mod


@dataclass(frozen=True)
class Compiled:
    """What a compile in a child process gives back of Triton's ``CompiledKernel``: its texts and metadata."""

    asm: dict[str, Any]
    metadata: Any

    @classmethod
    def of(cls, c: Any) -> "Compiled":
        md = c.metadata._asdict() if hasattr(c.metadata, "_asdict") else vars(c.metadata)
        return cls(dict(c.asm), SimpleNamespace(**md))

    def relative(self, directory: Path) -> "Compiled":
        """The texts' source locations relative to ``directory`` (a compile's temporary one), so that a kernel
        compiled twice writes the same TTGIR."""
        where = f'"{directory}/'
        return Compiled({k: v.replace(where, '"') if isinstance(v, str) else v for k, v in self.asm.items()},
                        self.metadata)


@contextlib.contextmanager
def _stderr_to(path: Path) -> Iterator[None]:
    """File descriptor 2 (where MLIR and ptxas print) written to ``path`` for the duration."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(path, "wb") as f:
            os.dup2(f.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


# what Triton raises where MLIR printed the reason on stderr (a pass failed; the IR Gluon built did not verify)
_SAYS_NOTHING = ("PassManager::run failed", "error encountered during parsing")


def _innermost(e: BaseException, said: Path | None = None, source: str | None = None) -> str:
    """The message of the deepest error in a chain of Triton compilation errors, with its line; where that
    is only a pass manager's failure or a parse's, the first error MLIR printed (``said``: what it wrote on stderr).
    ``source``: the kernel's whole source, to name the line as ``kernel_gluon.py`` numbers it (Triton numbers it
    within its function)."""
    text = said.read_text(errors="replace") if said is not None and said.exists() else ""
    first = next((ln.strip() for ln in text.splitlines() if " error: " in ln), None)
    chain = [e]
    while chain[-1].__cause__ is not None and len(chain) < 20:
        chain.append(chain[-1].__cause__)
    if first is not None and any(g in str(x) for x in chain for g in _SAYS_NOTHING):
        return first.split("kernel_gluon.py:", 1)[-1]
    said_by_ptxas = next((m for m in (_ptxas_error(str(x)) for x in chain) if m), None)
    if said_by_ptxas:
        return said_by_ptxas
    for err in reversed(chain):
        msg = getattr(err, "error_message", None) or ""
        node = getattr(err, "node", None)
        where = _error_line(getattr(err, "src", None), getattr(node, "lineno", None), source) if node is not None else ""
        if msg.strip():
            return where + msg.strip().splitlines()[-1]
    lines = [ln.strip() for ln in str(chain[-1]).splitlines() if ln.strip()]
    return lines[-1] if lines else type(chain[-1]).__name__


def _error_line(src: str | None, lineno: int | None, source: str | None) -> str:
    """``line N (`STATEMENT`, in FUNCTION): `` for a Triton compilation error at ``lineno`` of function source ``src``:
    N the line in ``source`` (the whole generated file) where the function's text is found there, else Triton's
    line within the function.

    >>> _error_line("def f(a):\\n    b = a + 1\\n    return b", 2, "import x\\n\\ndef f(a):\\n    b = a + 1\\n    return b")
    'line 4 (`b = a + 1`, in f): '
    >>> _error_line(None, 7, None)
    'line 7: '
    """
    if lineno is None:
        return "line ?: "
    lines = src.split("\n") if src else []
    if not 0 < lineno <= len(lines):
        return f"line {lineno}: "
    text = lines[lineno - 1].strip()
    m = re.match(r"\s*def\s+(\w+)", lines[0]) if lines else None
    func = f", in {m.group(1)}" if m else ""
    at = source.find(src.rstrip("\n")) if source and src.strip() else -1
    n = source.count("\n", 0, at) + lineno if at >= 0 and source is not None else lineno
    return f"line {n} (`{text[:60]}`{func}): "


def _ptxas_error(text: str) -> str | None:
    """ptxas's first error line in ``text`` (``ptxas /tmp/x.ptx, line 70; error   : Modifier '.evict_last' cannot be
    combined with modifier '.ca'``) without its temporary file, or None: Triton prints a repro command after it.
    A fatal line (``ptxas fatal   : (C7602) Insufficient registers (80) to compile instruction at line 800``) as it
    is, but the "assembly aborted" line after it. Where ptxas said nothing and died of a signal (Triton's "failed with error code -11"), the signal's name."""
    m = re.search(r"^\s*ptxas\s+\S+,\s*(line \d+;\s*error\s*:.*)$", text, re.M)
    if m:
        return "ptxas: " + re.sub(r"\s+", " ", m.group(1))
    fatal = [f for f in re.findall(r"^\s*ptxas fatal\s*:\s*(.*)$", text, re.M) if not f.startswith("Ptx assembly")]
    if fatal:                                                        # (C7602) Insufficient registers (80) ...
        return "ptxas: " + re.sub(r"\s+", " ", fatal[0]).strip()
    crash = re.search(r"`ptxas` failed with error code (-\d+)", text)
    if crash is None:
        return None
    try:
        name = signal.Signals(-int(crash.group(1))).name
    except ValueError:
        name = f"signal {-int(crash.group(1))}"
    return f"ptxas crashed ({name}, no error message): a ptxas defect on this kernel's PTX"


# ptxas's C7510-C7515 notes, e.g. "wgmma.mma_async instructions are serialized due to insufficient register
# resources for the wgmma pipeline in the function 'twill_kernel'" (the reason, up to "for the/in the function")
SERIALIZED = re.compile(r"wgmma\.mma_async instructions are serialized due to (.+?)"
                        r"(?:(?: for the wgmma pipeline)?(?: in| for) the function\b.*)?$", re.M)


@dataclass(frozen=True)
class PtxasReport:
    """What ptxas says of the compiled kernel: registers, spills, and whether it serialised the wgmmas
    (it does when the asynchronous pipeline's registers do not fit: every wgmma then waits for the
    one before, a silent loss of the overlap the schedule asked for)."""

    registers: int
    spill_stores: int
    spill_loads: int
    serialized: str = ""            # ptxas's reason, when it serialised the wgmmas
    spills_in_loop: int | None = None   # spill instructions (STL, LDL) inside a loop that issues wgmmas; None: unread

    @property
    def clean(self) -> bool:
        """Nothing serialised, and no spill in the pipelined loops: spills outside them (a persistent
        kernel's per-tile scalars, stored before a tile's loop and loaded after it) cost a few cycles
        per tile, not per iteration."""
        spilled = bool(self.spill_stores or self.spill_loads)
        return not self.serialized and (not spilled or self.spills_in_loop == 0)

    def problem(self) -> str:
        if self.serialized:
            return f"ptxas serialises the wgmmas ({self.serialized})"
        if (self.spill_stores or self.spill_loads) and not self.clean:
            where = "" if self.spills_in_loop is None else f", {self.spills_in_loop} spill instructions in the loop"
            return f"ptxas spills registers ({self.spill_stores} bytes stored, {self.spill_loads} loaded{where})"
        return ""

    @property
    def cost(self) -> tuple[int, int, int]:
        """How bad the kernel's register allocation is, for ordering: serialised wgmmas (every one waits
        for the one before), then spill instructions in the pipelined loops, then spilled bytes."""
        if self.clean:
            return (0, 0, 0)
        loop = self.spills_in_loop if self.spills_in_loop is not None else 1 << 20
        return (int(bool(self.serialized)), loop, self.spill_stores + self.spill_loads)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def chosen_candidate(cands: list[dict]) -> int | None:
    """Index of the route's chosen candidate in a ``gluon.json`` record's ``candidates`` (``twill.gluon_route._choose``,
    as the record keeps it): the ptxas-clean one predicted fastest per SM (fewest sub-tiles on a tie), else the one
    ptxas allocated best, then predicted fastest; None where none was made. The record's ``chosen`` names the sub-tiles
    only, which two candidates may share (a one-stage alternative, ``gluon_route._fewer_stages``)."""
    made = [i for i, c in enumerate(cands) if c.get("ptxas") is not None and not c.get("error")]
    clean = [i for i in made if PtxasReport(**cands[i]["ptxas"]).clean]
    if clean:
        # per SM (its CTAs an SM share its units: ``Candidate.sm_cycles``); a record written before had none
        return min(clean, key=lambda i: (round(cands[i].get("sm_cycles") or cands[i]["iteration_cycles"]),
                                         cands[i]["subtiles"]))

    def allocation(i: int) -> tuple:
        cost = PtxasReport(**cands[i]["ptxas"]).cost
        return (cost[0], cands[i]["iteration_cycles"], cost)
    return min(made, key=allocation) if made else None


def _plan(fn: Function, loop: Any, graph: LoopGraph, schedule: Schedule, *args: Any, own_tiles: bool = False,
          prefetch: int | None = None, **kw: Any) -> KernelPlan:
    """``plan_kernel``; a consumer loading its own tiles copies a wgmma's tiles ``prefetch`` iterations ahead (None:
    ``PREFETCH``, at most the launch's ``num_stages - 1`` and a constant trip count - 1, fewer where the buffers would
    not fit shared memory; 0, or none fitting: loaded a stage ahead in registers). Beside a producer, where a
    consumer's pointer loads a stage ahead of their readers give it a third stage and the loop's trip count varies
    between programs (FlexAttention's block indices, loaded by the consumers for the offsets they carry; a program
    may have no full block), the loads run in their readers' stage: two stages run any trip count (``_least_trips``)."""
    if not own_tiles:
        plan = plan_kernel(fn, loop, graph, schedule, *args, **kw)
        why = schedule.get("loads_ahead_why")
        if why:
            plan.decisions.append(f"the consumers' pointer loads in their readers' stage: {why}")
        if (not alone(plan) and max(p.stages for p in plan.consumers) > 2 and schedule.get("loads_ahead", 1)
                and trip_count_varies(fn, loop)):
            plan = plan_kernel(fn, loop, graph, schedule.with_extra(loads_ahead=0), *args, **kw)
            plan.decisions.append("the consumers' pointer loads in their readers' stage, not a stage ahead: the "
                                  "loop's trip count varies between programs, and a third stage would need two "
                                  "iterations of every program (run 101)")
        return plan
    args = (schedule, *args)
    trips, stages = _constant_trips(fn, loop), int(graph.get("num_stages") or PREFETCH + 1)
    most = min(PREFETCH, stages - 1, PREFETCH if trips is None else trips - 1)
    for ahead in range(most if prefetch is None else prefetch, 0, -1):
        try:
            return plan_kernel(fn, loop, graph, *args, own_tiles=True, prefetch=ahead, **kw)
        except SharedMemoryExceeded:
            pass
    return plan_kernel(fn, loop, graph, *args, own_tiles=True, **kw)


def _constant_trips(fn: Any, loop: Any) -> int | None:
    """The iterations ``loop`` runs where its bounds are integer constants (FLA's chunk_o over K: 2), else None."""
    bounds = loop_bounds(loop)
    consts = {r: int_constant(o) for o in fn.ops for r in o.results if o.name == "arith.constant"}
    lb, ub, step = (consts.get(b) for b in bounds) if bounds is not None else (None, None, None)
    if lb is None or ub is None or not step:
        return None
    return max(0, -(-(ub - lb) // step))


NO_WGMMA_SPILLS = 1024   # bytes a thread spilled from which a loop with no wgmma counts its spills (``spills_in_loops``):
# FlagGems' weight-norm backward spilled 8476 over two stages, ran 1.039 ms against 0.131 in one (run 131); FLA's
# recurrent GLA 220 over three, 2.84 ms against 3.07 in one, bitsandbytes' NF4 GEMV 260 over two, 350 us against 341


def ptxas_report(compiled: Any, machine: Machine) -> PtxasReport | None:
    """ptxas -v over the compiled PTX (Triton's own ptxas, as it compiled it); None when there is none. Once per
    PTX text (the route asks again of a kernel it keeps)."""
    key = (hashlib.sha1(str(compiled.asm.get("ptx")).encode()).hexdigest(), machine.sm)
    if key not in _REPORTS:
        _REPORTS[key] = _ptxas_report(compiled, machine)
    return _REPORTS[key]


_REPORTS: dict[tuple, Any] = {}


def _ptxas_report(compiled: Any, machine: Machine) -> PtxasReport | None:
    try:
        from triton.backends.nvidia.compiler import get_ptxas
        ptxas = get_ptxas(machine.sm).path
    except Exception:   # noqa: BLE001 - no NVIDIA back end here: unknown, not clean
        return None
    arch = f"sm_{machine.sm}a" if machine.sm == 90 else f"sm_{machine.sm}"
    with tempfile.TemporaryDirectory(prefix="twill-ptxas-") as tmp:
        src = Path(tmp) / "k.ptx"
        src.write_text(compiled.asm["ptx"])
        r = subprocess.run([ptxas, "-v", f"--gpu-name={arch}", str(src), "-o", str(Path(tmp) / "k.cubin")],
                           capture_output=True, text=True)
        log = r.stdout + r.stderr
        if r.returncode != 0:
            return None
        regs = [int(x) for x in re.findall(r"Used (\d+) registers", log)]
        spills = re.findall(r"(\d+) bytes spill stores, (\d+) bytes spill loads", log)
        ser = SERIALIZED.search(log)
        stored = sum(int(a) for a, _ in spills)
        in_loop = spills_in_loops(Path(ptxas).with_name("nvdisasm"), Path(tmp) / "k.cubin",
                                  every=stored >= NO_WGMMA_SPILLS) if any(int(a) or int(b) for a, b in spills) else 0
    return PtxasReport(registers=max(regs, default=0), spill_stores=sum(int(a) for a, _ in spills),
                       spill_loads=sum(int(b) for _, b in spills), serialized=ser.group(1).strip() if ser else "",
                       spills_in_loop=in_loop)


def copy_aligned(source: str) -> list[str]:
    """The arguments a generated kernel's launcher requires 16-divisible for its cp.async copies (``COPY_ALIGNED``;
    none where it never copies so)."""
    m = re.search(r"^COPY_ALIGNED = (\[.*?\])", source, re.M)
    return json.loads(m.group(1).replace("'", '"')) if m else []


def compile_offline(k: GluonKernel, machine: Machine, directory: str | Path | None = None,
                    copy: bool | None = None, tma: bool | None = None) -> Any:
    """The ``CompiledKernel`` of ``k`` for ``machine``, compiled without a GPU; a CompileError naming the
    generated line when Triton rejects it, and when its shared memory exceeds the SM's. ``copy``: a producer
    copying pointer tiles does so with cp.async (False: the path for launches too little aligned for it; None:
    as the kernel's launcher may, ``GluonKernel.cp_async``); ``tma``: the tiles that are TMA boxes loaded so (None: as
    ``copy``; the path an aligned launch takes)."""
    copy = k.cp_async if copy is None else copy
    tma = copy if tma is None else tma
    key = (k.source, k.name, tuple(k.signature.items()), tuple(k.divisible), k.num_warps, k.maxnreg, copy, tma,
           machine.sm, machine.smem_per_cta)
    if directory is None and key in _COMPILED:   # the route compiles a kernel more than once; each compile runs in a
        return _COMPILED[key]                    # child process, whose in-memory caches die with it
    compiled = _compile_offline(k, machine, directory, copy, tma)
    if directory is None:
        _COMPILED[key] = compiled
    return compiled


_COMPILED: dict[tuple, Any] = {}


def _compile_offline(k: GluonKernel, machine: Machine, directory: str | Path | None, copy: bool, tma: bool) -> Any:
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.experimental.gluon._runtime import GluonASTSource

    with tempfile.TemporaryDirectory(prefix="twill-gluon-") as tmp:
        try:
            mod = load_module(k.source, directory or tmp)
        except SyntaxError as e:          # a generator defect: one line naming the generated line, never a traceback
            raise CompileError(f"the generated Gluon kernel is not valid Python: line {e.lineno}: {e.msg}",
                               where="kernel_gluon.py") from None
        fn = getattr(mod, k.name)
        names, signature = list(k.signature), dict(k.signature)
        flags = {(names.index(COPY_FLAG),): copy} if COPY_FLAG in k.signature else {}
        aligned = set(k.divisible) | (set(copy_aligned(k.source)) if flags and copy else set())
        if TMA_FLAG in k.signature:      # without TMA, the launcher passes None for the boxes' descriptors
            flags[(names.index(TMA_FLAG),)] = tma
            boxes = [n for n in names if n.startswith("twill_box_")] if not tma else []
            flags.update({(names.index(n),): None for n in boxes})
            signature.update(dict.fromkeys(boxes, "constexpr"))
        attrs = {(names.index(n),): [["tt.divisibility", 16]] for n in aligned if n in k.signature}
        src = GluonASTSource(fn=fn, signature=signature, constexprs=flags, attrs=attrs)
        said = Path(tmp) / "stderr.txt"

        def build() -> Any:
            try:
                with _stderr_to(said):       # MLIR prints its diagnostics on fd 2: kept for the message, not shown
                    return Compiled.of(triton.compile(src, target=GPUTarget("cuda", machine.sm, 32),
                                                      options={"num_warps": k.num_warps, "maxnreg": k.maxnreg}))
            except Exception as e:   # noqa: BLE001 - Triton's errors come in many types: one line, with the kernel
                raise CompileError(f"the generated Gluon kernel does not compile: {_innermost(e, said, k.source)}",
                                   where="kernel_gluon.py") from None
        compiled = contained(build, said, where="kernel_gluon.py", what="the generated Gluon kernel")
        compiled = compiled.relative(Path(directory or tmp))
    shared = int(getattr(compiled.metadata, "shared", 0) or 0)
    if shared > machine.smem_per_cta:
        raise CompileError("the generated Gluon kernel needs more shared memory than the SM has",
                           where="kernel_gluon.py", expected=f"<= {machine.smem_per_cta} bytes", found=f"{shared} bytes")
    return compiled
