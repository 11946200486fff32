"""The Gluon route of ``twill optimize``: the schedule twill writes as a Gluon kernel itself.

Triton's passes do not apply a stage to a dot before the last, nor registers per partition, nor
asynchronous wgmma across partitions; the Gluon back end writes all of that, so this route solves
without Triton's realisability constraints. Its search dimension is the row split: for each number
of row sub-tiles the rows allow (``twill.ir.dims``; a Hopper sub-tile keeps at least one 64-row
warpgroup), the graph is split, costed, normalised and solved jointly, with the register limit of
the partition the generated kernel will give each compute group. Each schedule's kernel is generated,
compiled offline and read back from ptxas: when ptxas spills or serialises the wgmmas (the model
counts tiles, ptxas also needs addresses and the asynchronous pipeline's registers), the split is
solved again under a tighter limit. The best predicted iteration (cycles) among the clean kernels
wins, the fewest sub-tiles on a tie.
"""
from __future__ import annotations

import dataclasses
import math
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from codegen.gluon.calibration import Calibration, load_for
from codegen.gluon.generate import (GluonKernel, PtxasReport, compile_offline, distinct_loop_names, generate,
                                    grid_strided, kernel_function, one_cta_per_sm, ptxas_report, read_together,
                                    sibling_loops, structure)
from codegen.gluon.kernel import constant_trips
from codegen.gluon.protocol import ProtocolError, Unsimulated, check_kernel, trip_counts
from codegen.gluon.replay import model_costs, replay
from codegen.gluon.short import SHORT_KERNEL, TIMED_ROUNDS, TIMED_RUNS, with_short_loops, with_timed_choice
from codegen.gluon.trips import launch_trips
from codegen.gluon.ops import source_where
from codegen.gluon.plain import distinct_ranges
from codegen.gluon.plan import COPY_WARPS, REG_FILE, REG_OVERHEAD, WIDE_COPY_WARPS
from twill.errors import CompileError, InputError, TwillError, UnsupportedError
from twill.graph.io import graph_to_dict
from twill.graph.extract import graph_of
from twill.graph.model import LoopGraph
from twill.graph.split import split_graph
from twill.ir.dims import row_split
from twill.ir.frontend import KernelIR
from twill.ir.function import read_function
from twill.ir.ttgir import TypeInfo
from twill.machine.cost import annotate_costs, issue_factor, written_scale
from twill.machine.model import Machine, pointer_load_wait
from twill.schedule.latency import latency_floor
from twill.schedule.model import Schedule
from twill.schedule.verify import verify
from twill.solve.budget import spent
from twill.solve.modulo import modulo_schedule
from twill.solve.normalize import normalize_graph
from twill.solve.bounds import res_mii
from twill.solve.joint_problem import JointProblem, lookahead_pairs, subtile_of
from twill.solve.problem import ModuloProblem, SolveOptions
from twill.solve.search import JointOptions, joint_search

ROWS_PER_WARPGROUP = 64          # a Hopper wgmma is m64nNk16 per warpgroup
PRODUCER_REGS = 24
# The joint searches of all row splits together, unless --total-time says: deterministic seconds (twill.solve.budget),
# so that a fresh solve finds the same schedule on every machine (issue #14); about the 120 wall seconds this budget
# was before on the 2-core machine (a deterministic second of these joint models takes it about four CPU seconds).
SEARCH_SECONDS = 30.0


@dataclass(frozen=True)
class Candidate:
    """One point of the search: the row split, its graph and schedule, and the predicted iteration;
    once generated, its kernel and what ptxas said of it (or why it was not generated)."""

    subtiles: int
    graph: LoopGraph                 # normalised, split
    costed: LoopGraph                # in cycles, split
    schedule: Schedule
    norm: dict[str, Any]
    reg_limit: int = 0               # registers per thread a compute group was allowed
    budget: float = 0.0              # deterministic seconds the joint search had (twill.solve.budget)
    hold: bool = True                # a dot's register operands live until it retires (else: until issued)
    lookahead: tuple[int | None, ...] = ()   # row sub-tiles under LOOKAHEAD (dependent dots an iteration apart)
    kernel: GluonKernel | None = None
    ttgir: str | None = None
    ptxas: PtxasReport | None = None
    error: str = ""                  # why no kernel was generated
    replayed: float | None = None    # cycles per iteration the kernel's replay with the solver's costs takes
    calibration: Calibration | None = field(default=None, compare=False, repr=False)   # --calibrated: the costs
    shared: int = 0                  # shared memory compiled, bytes (the planned buffers and Triton's scratch)
    busiest: float = 0.0             # cycles one iteration reserves its busiest unit (``res_mii`` of ``costed``)
    issue_floor: float = 0.0         # cycles its busiest consumer takes to issue an iteration (``issue_floor``)

    @property
    def cycles(self) -> float:
        """The iteration predicted: the schedule's II in cycles, but no less than its busiest consumer takes to issue
        the iteration's ops (``issue_floor``: a row split's consumers of fewer warps, run 165)."""
        return max(self.schedule.ii * float(self.norm["scale"]), self.issue_floor, self.latency_floor) \
            if self.schedule.status in ("optimal", "feasible") else math.inf

    @property
    def latency_floor(self) -> float:
        """The iteration's floor where its warps issue the loop's pointer loads themselves (``latency_floor``)."""
        if self.costed is None:
            return 0.0
        plan = getattr(self.kernel, "plan", None)
        return latency_floor(self.costed, self.schedule, plan is not None and getattr(plan, "producer", 0) is None)

    @property
    def sm_cycles(self) -> float:
        """Cycles an SM takes for an iteration of each CTA it holds: the iteration over the CTAs it holds at once,
        but no fewer than one iteration reserves its busiest unit (each unit is one SM-wide resource, shared by the
        SM's CTAs). Run 136: the fp8 weight GEMM's 128 x 128 tile in one 4-warp consumer, two CTAs an SM, 473.3
        TFLOP/s, against one 8-warp consumer in one CTA, 355.4; both 704 cycles an iteration predicted, 512 of them
        the tensor core's."""
        ctas = self.ctas_per_sm
        return self.cycles if ctas <= 1 else max(self.cycles / ctas, self.busiest)

    @property
    def ctas_per_sm(self) -> int:
        """CTAs of this kernel an SM holds at once: for a warp-specialized kernel 1, or 2 where its registers are
        set for two (``plan.two_ctas``); else by ptxas's registers and the shared memory compiled (``occupancy``; the
        planned buffers leave out Triton's scratch and a sibling loop's buffers: FLA's WY backward plans 49 KB and
        compiles to 120 KB, one CTA an SM, not the two the planned figure gave)."""
        k = self.kernel
        if k is None or k.maxnreg is not None or self.ptxas is None or k.plan is None:
            return 2 if k is not None and k.plan is not None and k.plan.two_ctas else 1
        return occupancy(self.ptxas.registers, k.num_warps, self.shared or k.plan.smem_bytes)

    @property
    def unfitted(self) -> list[str]:
        """--calibrated: the dot classes of this candidate's graph the calibration has no factor for."""
        return self.calibration.unfitted(self.graph.ops) if self.calibration is not None else []

    @property
    def clean(self) -> bool:
        """Generated, compiled, and ptxas neither spills nor serialises the wgmmas."""
        return self.kernel is not None and (self.ptxas is None or self.ptxas.clean)

    def summary(self) -> dict[str, Any]:
        return {"subtiles": self.subtiles, "ii": self.schedule.ii, "length": self.schedule.length,
                "reg_limit": self.reg_limit, "search_seconds": round(self.schedule.solve_seconds, 1),
                "search_budget": round(self.budget, 4), "search_spent": round(spent(self.schedule.get("budget")), 3),
                "search_stopped_by": (self.schedule.get("budget") or {}).get("stopped_by"),
                "operands_live": "until the dot retires" if self.hold else "until the dot issues",
                "lookahead": list(self.lookahead),
                "replayed_cycles": round(self.replayed, 1) if self.replayed else None,
                "costs": "calibrated" if self.calibration is not None else "model",
                "unfitted_dot_classes": self.unfitted or None,
                "status": self.schedule.status, "iteration_cycles": round(self.cycles, 1)
                if self.cycles < math.inf else None,
                "sm_cycles": round(self.sm_cycles, 1) if self.kernel is not None and self.cycles < math.inf else None,
                "ctas_per_sm": self.ctas_per_sm if self.kernel is not None else None,
                "issue_floor": round(self.issue_floor, 1) if self.issue_floor else None,
                "latency_floor": round(self.latency_floor, 1) if self.latency_floor else None,
                "warp_groups": self.schedule.get("warp_groups"),
                "ptxas": self.ptxas.to_dict() if self.ptxas else None, "error": self.error or None,
                "staged": [b.name for b in self.kernel.plan.staging.buffers] if self.kernel is not None else []}


@dataclass
class GluonResult:
    """The Gluon route's outcome: the chosen candidate and its kernel, or why there is none."""

    candidates: list[Candidate] = field(default_factory=list)
    chosen: Candidate | None = None
    reason: str = ""
    hint: str = ""                   # what the user could change for a better kernel (``--num-warps``)
    warps: int = 0                   # the kernel's warps (its spec's, or fewer: ``choose_warps``)
    warps_tried: tuple[dict[str, Any], ...] = ()   # each warps solved at and its ``sm_prediction`` (``choose_warps``)

    @property
    def kernel(self) -> GluonKernel | None:
        return self.chosen.kernel if self.chosen else None

    @property
    def ttgir(self) -> str | None:
        return self.chosen.ttgir if self.chosen else None

    def to_dict(self) -> dict[str, Any]:
        out = {"candidates": [c.summary() for c in self.candidates],
               "chosen": self.chosen.subtiles if self.chosen else None, "reason": self.reason,
               "kernel": self.kernel.to_dict() if self.kernel else None}
        if self.warps_tried:                # solved at fewer warps too (``choose_warps``)
            out.update(num_warps=self.warps, warps_tried=list(self.warps_tried))
        return out


def split_choices(rows: int, num_warps: int, requested: int | None) -> list[int]:
    """Row sub-tile counts to try: every divisor of the warps that keeps a warpgroup per sub-tile and at
    least 64 rows in it (``requested`` alone when given)."""
    if requested is not None:
        return [requested]
    out = [1]
    nc = 2
    while rows // nc >= ROWS_PER_WARPGROUP and num_warps // nc >= 4 and rows % nc == 0 and num_warps % nc == 0:
        out.append(nc)
        nc *= 2
    return out


def whole_cta(graph: LoopGraph, machine: Machine) -> bool:
    """Whether the kernel has more warps than a CTA may specialise (Liger's and Unsloth's 32-warp cross
    entropy): it is then written as one partition of all its warps, issuing its own loads, as Triton runs it
    (``JointProblem.from_graph``'s ``one_partition``)."""
    return int(graph.get("num_warps") or 4) > machine.max_warp_groups * 4


def one_partition_limit(graph: LoopGraph, warps: int) -> tuple[int, bool]:
    """The register limit of a kernel written as one partition of all its ``warps`` (``whole_cta``), which ptxas
    allocates as it does Triton's compile of the same loop, and whether its schedule is held to one stage: the
    register file's share of a thread; or, where the loop's tiles in one stage take more (Liger's 32768-wide row at
    32 warps), that footprint in one stage, as Triton runs such a loop (run 54b: three stages, the loads' pointers and
    masks held for the stores two iterations on, ran Liger's cross entropy 2.2x slower than Triton's one)."""
    share = min(256, REG_FILE // (32 * warps))
    one_stage = -(-sum(o.regs for o in graph.ops) // (4 * 32 * warps))
    if one_stage <= share:
        return share, False
    return min(256, -(-one_stage // 8) * 8), True


def consumer_reg_limit(machine: Machine, consumer_warps: list[int]) -> int:
    """Registers per thread a compute group of the generated kernel may hold in tiles: its share of the
    register file once the producer has its minimum, less what indices and addresses need."""
    groups = sum(max(1, math.ceil(w / 4)) for w in consumer_warps)
    share = min(256, ((REG_FILE // 128 - PRODUCER_REGS) // groups) // 8 * 8)
    return share - REG_OVERHEAD


@dataclass(frozen=True)
class _Split:
    """What one row split's searches share."""

    graph: LoopGraph                 # normalised, split
    costed: LoopGraph
    norm: dict[str, Any]
    modulo: Schedule
    nc: int
    calibration: Calibration | None = None
    one_partition: bool = False      # solved as one group of all the kernel's warps (``whole_cta``, ``_unspecialised``)
    together: tuple[tuple[str, str], ...] = ()   # ops one compute group holds both of (``generate.read_together``)


def solve_gluon(graph: LoopGraph, kir: KernelIR, machine: Machine, options: Any,
                say: Callable[[str], None]) -> GluonResult:
    """Search the row split; for each, solve, generate, compile and ask ptxas, and solve again under a
    tighter register limit while ptxas spills or serialises the wgmmas; keep the best clean kernel."""
    res = GluonResult()
    if machine.sm != 90:
        res.reason = f"the Gluon back end writes Hopper kernels; {machine.name} is sm_{machine.sm}"
        return res
    graph, kir = as_written(graph, kir, machine, options, say)
    try:
        structure(kir.text, graph)
    except UnsupportedError as e:       # refused whatever the schedule: said before any solve
        res.reason = str(e)
        return res
    unfit = unfit_value(graph)
    if unfit:                           # no row split nor register limit holds it (a sub-tile's threads are fewer)
        res.reason = unfit
        return res
    fn = read_function(distinct_ranges(kir.text), graph.name)    # a range per reader: which rows are independent
    loop = fn.module.loops()[graph.get("loop_index") or 0]
    rs = row_split(fn, loop)
    warps = int(graph.get("num_warps") or 4)
    requested = getattr(options, "row_split", None)
    choices = split_choices(rs.rows if rs.possible else 0, warps, requested)
    if requested not in (None, 1) and requested not in split_choices(rs.rows if rs.possible else 0, warps, None):
        raise InputError("--row-split cannot split these rows", where=graph.name,
                         expected=f"one of {split_choices(rs.rows if rs.possible else 0, warps, None)} (each sub-tile "
                         f"a warpgroup of {ROWS_PER_WARPGROUP}+ independent rows)",
                         found=f"{requested}" + ("" if rs.possible else f": {rs.why_not()}"))
    if (requested is None and rs.possible and choices == [1] and split_choices(rs.rows, 2 * warps, None) != [1]
            and getattr(options, "spec_warps", None) != 2 * warps):     # solved at half the spec's: it has the rows
        res.hint = (f"the kernel's {warps} warps are one warpgroup, so its {rs.rows} rows stay with one consumer; "
                    f"`--num-warps {2 * warps}` compiles it with {2 * warps} and lets the route split them between "
                    "consumers (run 32d: pointer_attention x0.83 -> x0.89 Triton's best at N = 16k)")
        say(f"gluon: {res.hint}")
    if not rs.possible and choices != [1]:
        say(f"gluon: the rows cannot be split ({rs.why_not()}); one compute group")
        choices = [1]
    solve_opts = SolveOptions(time_limit=options.time_limit,
                              **({"threads": options.threads} if getattr(options, "threads", None) else {}))
    total = getattr(options, "total_time", None) or SEARCH_SECONDS
    cal = _calibration(machine, options, say)
    splits = []
    together = read_together(kir.text, graph)
    for nc in choices:
        try:
            splits.append(_split(graph, rs, loop, nc, machine, options, solve_opts, cal, together))
        except TwillError as e:
            say(f"gluon: {nc} sub-tile(s): {e}")
    refused = []
    firsts: list[tuple[_Split, Candidate]] = []
    for sp in splits:
        try:
            found = _tighten(sp, kir, machine, options, solve_opts, total / max(1, len(splits)), say)
        except TwillError as e:          # the joint problem refuses the split (too many warps, say)
            say(f"gluon: {sp.nc} sub-tile(s): {e}")
            refused.append(f"{sp.nc} sub-tile(s): {e}")
            continue
        res.candidates += found
        firsts += [(sp, c) for c in found[-1:] if c.clean]
    if not any(c.clean for c in res.candidates):
        res.candidates += _in_one_stage(splits, res.candidates, kir, machine, options, solve_opts,
                                        total / max(1, len(splits)), say)
    best = min((c.cycles for _, c in firsts), default=math.inf)
    for sp, c in firsts:                 # the issue orders of the splits predicted best
        if c.cycles == best:
            res.candidates += _lookahead(sp, c, kir, machine, options, solve_opts, say)
    if not any(c.clean for c in res.candidates) and _unspecialised(splits):
        say("gluon: no clean kernel with the loop's ops in warp groups of their own; solved again as the one "
            "partition of all the kernel's warps that writes a loop with no dot or TMA load")
        one = dataclasses.replace(splits[0], one_partition=True)
        res.candidates += _tighten(one, kir, machine, options, solve_opts, total, say)
    res.candidates += _over_registers(res.candidates, kir, machine, options, say)
    res.candidates += _unsolved(splits, res.candidates, kir, machine, options, solve_opts, total, say)
    res = _timed_pair(_short_loops(_choose(res), kir, machine, options, say), kir, machine, options, say)
    if res.chosen is None and refused:
        res.reason = "; ".join(refused)
    return res


def fewer_warps(res: GluonResult, warps: int, options: Any) -> int | None:
    """The warps to solve the kernel again at (half its ``warps``), where the kernel chosen at them is one consumer of
    all its warps beside a producer of as many in one CTA an SM, its loop converts a loaded tile before a dot
    (``converts_a_loaded_tile``), and ``--num-warps`` was not given; else None.
    Run 199: three such kernels (8 + 8 warps: w4a16, w8a16, a fused RMSNorm GEMM, each dequantising or normalising
    a tile in the consumer) ran +13 %, +38 %, +38 % solved at 4 warps (two CTAs an SM, or a two-CTA one-partition
    kernel timed against the producer's at launch): the second CTA's wgmma overlaps the first's CUDA-core work.
    Run 202: where the consumer only issues wgmma on tiles the producer copied, 11 of 12 ran slower at 4 warps
    (-1 to -45 %), though the model predicted each faster: an 8-warp consumer already keeps the tensor core fed."""
    plan = res.kernel.plan if res.kernel is not None else None
    if (getattr(options, "num_warps", None) is not None or warps < 8 or plan is None or plan.producer is None
            or plan.producer.warps != warps or len(plan.consumers) != 1 or plan.consumers[0].warps != warps
            or not one_cta_per_sm(plan) or res.chosen is None or not converts_a_loaded_tile(res.chosen.graph)):
        return None
    return warps // 2


def converts_a_loaded_tile(graph: LoopGraph) -> bool:
    """Whether the loop converts a tile it loaded before a dot reads it (a dequantised weight, a normalised
    activation): a ``convert`` node with a load among its ancestors in the iteration, no dot, and a dot among its
    descendants (attention's probabilities, converted after a dot, are not)."""
    kind = {o.id: o.kind for o in graph.ops}
    preds: dict[str, list[str]] = {}
    succs: dict[str, list[str]] = {}
    for d in graph.deps:
        if d.distance == 0 and not d.memory:
            preds.setdefault(d.dst, []).append(d.src)
            succs.setdefault(d.src, []).append(d.dst)

    def reach(start: str, nbrs: dict[str, list[str]]) -> set[str]:
        seen: set[str] = set()
        todo = [start]
        while todo:
            for n in nbrs.get(todo.pop(), ()):
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        return seen

    for o in graph.ops:
        if o.kind != "convert":
            continue
        up, down = {kind[n] for n in reach(o.id, preds)}, {kind[n] for n in reach(o.id, succs)}
        if "load" in up and "dot" not in up and "dot" in down:
            return True
    return False


def sm_prediction(res: GluonResult) -> float:
    """Cycles an SM takes for an iteration of each CTA it holds, predicted for the chosen kernel
    (``Candidate.sm_cycles``); where the launch times it against its one-partition kernel (``_timed_pair``), the
    better of the two, that kernel's schedule the same and its CTAs an SM as compiled."""
    c = res.chosen
    if c is None or c.kernel is None or c.cycles == math.inf:
        return math.inf
    short = c.kernel.short or {}
    if short.get("timed") and not short.get("band_timed"):
        return min(c.sm_cycles, max(c.cycles / max(1, int(short.get("short_ctas", 1))), c.busiest))
    return c.sm_cycles


def _warps_line(res: GluonResult, warps: int) -> str:
    c = res.chosen
    if c is None or c.kernel is None:
        return f"{warps} warps: no kernel ({res.reason})"
    short = c.kernel.short or {}
    shape = ", ".join(f"{p.role} {p.warps}" for p in c.kernel.plan.partitions) if c.kernel.plan is not None else ""
    pair = (f"; timed at launch against its one-partition kernel, {short.get('short_ctas')} CTA(s) an SM"
            if short.get("timed") and not short.get("band_timed") else "")
    return (f"{warps} warps ({shape}; {c.ctas_per_sm} CTA(s) an SM{pair}): {sm_prediction(res):.0f} cycles an SM a "
            "CTA iteration")


WARPS_MARGIN = 0.02     # how much fewer cycles an SM the kernel of fewer warps must be predicted to take to be chosen


def choose_warps(res: GluonResult, warps: int, fewer: GluonResult, n: int, say: Callable[[str], None]) -> GluonResult:
    """The kernel's warps as a search dimension: of the kernel at its spec's ``warps`` (``res``) and at ``n``
    (``fewer``), the one predicted to take fewer cycles an SM (``sm_prediction``: the model prices the second CTA an
    SM that the fewer warps' registers leave room for, and nothing else of the difference); the spec's on a tie
    within ``WARPS_MARGIN``. A decision line of the chosen kernel says both predictions."""
    mine, theirs = sm_prediction(res), sm_prediction(fewer)
    take = theirs < mine * (1 - WARPS_MARGIN)
    chosen, other = (fewer, res) if take else (res, fewer)
    kept = n if take else warps
    line = (f"kernel warps: {_warps_line(chosen, kept)}, against {_warps_line(other, warps if take else n)}; "
            f"{'solved at' if take else 'kept at'} {kept} (the spec's {warps}"
            f"{'' if take else ', no fewer cycles an SM predicted at ' + str(n)}; run 199: three kernels of one "
            "8-warp consumer converting a loaded tile beside an 8-warp producer +13 to +38 % at 4 warps)")
    say(f"gluon: {line}")
    out = dataclasses.replace(chosen, warps=kept,
                              warps_tried=({"warps": warps, "sm_cycles": _rounded(mine)},
                                           {"warps": n, "sm_cycles": _rounded(theirs)}),
                              hint="" if take else chosen.hint)
    if out.chosen is not None and out.chosen.kernel is not None:
        k = out.chosen.kernel
        out.chosen = dataclasses.replace(out.chosen, kernel=dataclasses.replace(k, decisions=k.decisions + (line,)))
    return out


def _rounded(x: float) -> float | None:
    return round(x, 1) if x < math.inf else None


def _over_registers(candidates: list[Candidate], kir: KernelIR, machine: Machine, options: Any,
                    say: Callable[[str], None]) -> list[Candidate]:
    """Where no candidate made a kernel and some were refused because a warp-specialized consumer cannot hold their
    tiles (FA2's Triton backward over 8 warps: about 232 registers a thread against a consumer's 208), those
    written as the one partition of all the kernel's warps loading its own tiles, as Triton compiles the loop, ptxas
    allocating up to 255 registers (``--own-tiles auto`` only); so too where the producer's copies read a result of
    a loop beside the scheduled one that only the consumers run (``_producer_waits``: a key count before attention's
    loop bounds it)."""
    if any(c.kernel is not None for c in candidates) or getattr(options, "own_tiles", "auto") != "auto":
        return []
    out = []
    for c in [c for c in candidates if _refused_registers(c) or _producer_waits(c)][:2]:
        d = _generated(dataclasses.replace(c, schedule=c.schedule.with_extra(own_tiles=True), kernel=None), kir,
                       machine, options)
        if d.kernel is not None and not d.clean:       # as ``_tighten`` does: its dots' register operands staged
            d = _staged(d, kir, machine, options)
        why = ("a producer's copies would wait for a value only the first consumer computes" if _producer_waits(c)
               else "a warp-specialized consumer cannot hold them")
        say(f"gluon: {c.subtiles} row sub-tile(s) under {c.reg_limit} registers as one partition loading its own "
            f"tiles ({why}): "
            f"{(d.ptxas.problem() or 'clean') if d.ptxas is not None else d.error}")
        out.append(d)
    return out


def _unspecialised(splits: list[_Split]) -> bool:
    """Whether the loop has no dot and no TMA load, so the back end writes it as one partition of the kernel's warps
    whatever warp groups the schedule names (``plan._drop_idle_producer``), and one split was solved with its ops in
    4-warp groups: a row too wide for one group's registers (Liger's KL divergence, a 16384-wide fp32 row at 16 warps)
    has no such schedule, and has one as the one partition it runs as."""
    return len(splits) == 1 and not splits[0].one_partition and splits[0].nc == 1 and not any(
        o.kind in ("dot", "tma_load") or o.attr("guarded_dot_flops", 0) for o in splits[0].graph.ops)


def as_written(graph: LoopGraph, kir: KernelIR, machine: Machine, options: Any,
               say: Callable[[str], None]) -> tuple[LoopGraph, KernelIR]:
    """The graph and kernel IR the back end writes from: the kernel's loops as written where Triton fuses a
    ``flatten=True`` loop nest into one loop (``KernelIR.nested``): the back end keeps the tile loop around
    the scheduled loop itself (the producer loads the next tile's operands while the consumers finish this
    one), and a fused loop's body runs its tile prologue and epilogue behind ``scf.if`` on every iteration."""
    if kir.nested is None:
        return graph, kir
    nested = dataclasses.replace(kir, text=kir.nested, nested=None)
    loop = getattr(options, "loop", None)      # a source line names the same loop in both texts; an index does not
    line = loop if isinstance(loop, str) and ":" in loop else None
    g = graph_of(nested, machine.target, line, where=kir.kernel)
    say(f"gluon: the flatten=True loop nest as written (Triton's loop fusion left out): {g.get('loop_choice')}")
    return g, nested


SM_REGISTERS = 65536              # an SM's register file (Hopper), in 32-bit registers
SM_THREADS = 2048
SM_CTAS = 32


def occupancy(registers: int, warps: int, smem_bytes: int, smem_per_sm: int = 233472) -> int:
    """CTAs of ``warps`` warps an SM holds at once, with ``registers`` per thread (allocated per warp in units
    of 256) and ``smem_bytes`` of shared memory each (the launch's own 1 KB per CTA included)."""
    per_warp = -(-registers * 32 // 256) * 256
    by_regs = SM_REGISTERS // max(1, per_warp * warps)
    by_smem = smem_per_sm // (smem_bytes + 1024)
    return max(1, min(by_regs, by_smem, SM_THREADS // (32 * warps), SM_CTAS))


def _calibration(machine: Machine, options: Any, say: Callable[[str], None]) -> Calibration | None:
    """``--calibrated``: the machine's Gluon calibration (``codegen.gluon.calibration``), or None (and a note)
    when it has none."""
    if not getattr(options, "calibrated", False):
        return None
    found = load_for(machine)
    if found is None:
        say(f"note: no Gluon calibration for {machine.name}; the Gluon route costs its graphs with the machine model")
        return None
    cal, path = found
    say(f"gluon: costs calibrated from {path} (fitted on {', '.join(e['label'] for e in cal.fitted_from)})")
    return cal


def _split(graph: LoopGraph, rs: Any, loop: Any, nc: int, machine: Machine, options: Any,
           solve_opts: SolveOptions, cal: Calibration | None = None,
           together: tuple[tuple[str, str], ...] = ()) -> _Split:
    g = split_graph(graph, rs, loop.body.ops if loop.body else [], nc)
    # --calibrated: the costs fitted from the generated kernels' profiles; --sequential-groups: the written
    # kernels' measured reduction latency (machine file's [written] table)
    scale = None
    if cal is not None:
        scale = cal.scale
    elif getattr(options, "sequential_groups", False):
        scale = written_scale(machine)
    costed = annotate_costs(g, machine, scale=scale)
    scaled, norm = normalize_graph(costed, options.normalize_bound)
    modulo = modulo_schedule(ModuloProblem.from_graph(scaled, machine.units), options.backend, solve_opts)
    return _Split(scaled, costed, norm, modulo, nc, cal, whole_cta(g, machine), split_pairs(g, together))


def split_pairs(g: LoopGraph, together: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """``together``'s pairs of base node ids as the ops of ``g`` (split into row sub-tiles): a pair of split ops
    sub-tile by sub-tile (each consumer stores its own rows), else every copy of one with the other; none with a
    variable-latency op (a load, on the producer's group)."""
    copies: dict[str, list[str]] = {}
    for o in g.ops:     # a load's result is the producer's (no compute group holds it): the back end refuses those
        if not o.variable_latency:
            copies.setdefault(o.attr("split_of") or o.id, []).append(o.id)
    out: list[tuple[str, str]] = []
    for a, b in together:
        xs, ys = copies.get(a, []), copies.get(b, [])
        out += list(zip(xs, ys)) if len(xs) == len(ys) else [(x, y) for x in xs for y in ys]
    return tuple(dict.fromkeys(out))


TIGHTEN_STEP = 16                # registers per thread taken off the limit when ptxas needs more
TIGHTEN_TRIES = 3
LOOKAHEAD_SECONDS = 2.5          # the search under LOOKAHEAD, per variant, deterministic seconds (about 10 wall seconds)
MIN_SEARCH = 0.25                # deterministic seconds: less left than this, no further candidate is solved


def _attempts(limit: int) -> list[tuple[bool, int]]:
    """(hold, register limit) in the order tried: at each limit, operands live until the dot retires
    (the model closest to the kernel) and then until it issues (a different schedule, which ptxas may
    allocate without serialising); then ``TIGHTEN_STEP`` registers tighter."""
    return [(hold, limit - k * TIGHTEN_STEP) for k in range(TIGHTEN_TRIES) for hold in (True, False)]


def _tighten(sp: _Split, kir: KernelIR, machine: Machine, options: Any, solve_opts: SolveOptions, budget: float,
             say: Callable[[str], None], one_stage: bool = False) -> list[Candidate]:
    """One split's candidates, until one is clean: solved under the partition's register limit, generated,
    compiled and checked by ptxas; while ptxas spills or serialises the wgmmas, solved again with the other
    operand-lifetime model, then tighter (the schedule's register model counts tiles, ptxas also needs
    addresses and the wgmma pipeline's); when none is clean, each generated again with its dots' register
    operands staged through shared memory (``_staged``). ``one_stage``: every candidate solved in one stage
    (``_in_one_stage``)."""
    warps = int(sp.graph.get("num_warps") or 4)
    limit, one_stage = (one_partition_limit(sp.graph, warps) if sp.one_partition
                        else (consumer_reg_limit(machine, [warps // sp.nc] * sp.nc), one_stage))
    # deterministic seconds left: only the searches' own work counts (not ptxas, not the machine's load), so the
    # candidates solved and their schedules are the same on every machine
    left = budget
    out: list[Candidate] = []
    refuted: list[tuple[bool, int, int]] = []    # (hold, limit, every I below this refuted) of each search so far
    for hold, lim in _attempts(limit):
        if left <= MIN_SEARCH:
            break
        if out and out[-1].cycles == math.inf and lim < out[-1].reg_limit:
            break                    # nothing fitted at a looser limit
        # the other lifetime model keeps half of what is left, and so does a tighter limit after a schedule the
        # register file cannot hold (AMD's dropout attention: both first searches ran to their budget and were
        # refused, 235 registers a thread against 208, and the split of two 4-warp consumers, run 166 x0.58, won)
        share = left / 2 if hold or (out and _refused_registers(out[-1])) else left
        c = _generated(_candidate(sp, machine, options, solve_opts, share, hold, lim, one_stage=one_stage,
                                  refuted_below=_inherited(refuted, hold, lim)), kir, machine, options)
        refuted.append((hold, lim, int(c.schedule.get("refuted_below") or 0)))
        left -= spent(c.schedule.get("budget"))
        if c.schedule.get("async_copies") and c.kernel is not None and not c.kernel.cp_async and any(
                r.copied for r in c.kernel.plan.rings):   # copied through the producer's registers: it waits for them
            c = _generated(_candidate(sp, machine, options, solve_opts, share, hold, lim, one_stage=one_stage,
                                      held_copies=True), kir, machine, options)   # (run 179: i64_bounds_gemm x0.47)
            left -= spent(c.schedule.get("budget"))
        d = _own_tiles(c, sp, kir, machine, options, solve_opts, max(MIN_SEARCH, left), say)
        left -= spent(d.schedule.get("budget")) if d.schedule is not c.schedule else 0.0
        c = d
        out.append(c)
        _say_candidate(c, say)
        if c.clean:
            return out[:-1] + _fewer_stages(c, sp, kir, machine, options, solve_opts, max(left, MIN_SEARCH), say)
    last = out[-1] if out else None
    if sp.one_partition and not one_stage and last is not None and last.kernel is not None:
        # the kernel's own warps hold the tiles a stage ahead, and ptxas spills them: in one stage, as Triton runs
        # the loop (FlagGems' weight-norm backward, two [32, 512] fp32 tiles over 8 warps: 8.3 KB spilled a thread
        # in two stages, 1.039 -> 0.131 ms, Triton 0.124, run 131; a few hundred bytes cost less than the pipeline
        # and do not count, ``generate.NO_WGMMA_SPILLS``)
        c = _generated(_candidate(sp, machine, options, solve_opts, max(left, MIN_SEARCH), True, limit,
                                  one_stage=True), kir, machine, options)
        out.append(c)
        _say_candidate(c, say)
        if c.clean:
            return out
    # ptxas could allocate none of them: the consumers' loads in their readers' stage, then the dots' register operands
    # staged through shared memory
    staged = [_staged(_in_readers_stage(c, kir, machine, options, say), kir, machine, options) for c in out]
    for c, d in zip(out, staged):
        if d is not c:
            say(f"gluon: {d.subtiles} row sub-tile(s) under {d.reg_limit} registers, operands staged through shared "
                f"memory: {d.ptxas.problem() or 'clean'} (was: {c.ptxas.problem()})")
    best = min((c for c in staged if c.clean), key=rank, default=None)
    if best is None:
        return staged
    # kept clean with its loads in their readers' stage, it may still hold tiles across the stages: the same loop in
    # one stage beside it, as for a kernel clean at the first try
    left = max(MIN_SEARCH, budget - sum(spent(c.schedule.get("budget")) for c in out))
    return _fewer_stages(best, sp, kir, machine, options, solve_opts, left, say) + [c for c in staged if c is not best]


def _inherited(refuted: list[tuple[bool, int, int]], hold: bool, limit: int) -> int:
    """Every I below this refuted for a search under ``limit`` registers with operands live until the dot retires
    (``hold``) or issues: the most that an earlier search of the same split refuted under a looser problem, a limit
    as high or higher and operands live no longer (``JointOptions.refuted_below``). Session 77: the tighter limits'
    searches ascended again through every I the first ones had refuted (Performer's key state, I 123-201 twice)."""
    return max((below for h, lim, below in refuted if lim >= limit and (hold or not h)), default=0)


def _unsolved(splits: list["_Split"], candidates: list[Candidate], kir: KernelIR, machine: Machine, options: Any,
              solve_opts: SolveOptions, total: float, say: Callable[[str], None]) -> list[Candidate]:
    """Where no split found a joint schedule at all (every search ran out under a warp-specialized consumer's register
    limit: the Differential Transformer's two [64, 128] fp32 accumulators and two score tiles a row sub-tile), the
    loop solved again as the one partition of all the kernel's warps loading its own tiles, as Triton runs it, ptxas
    allocating up to 255 registers (``--own-tiles auto`` only)."""
    if (not splits or _unspecialised(splits) or getattr(options, "own_tiles", "auto") != "auto"
            or any(c.schedule.status in ("optimal", "feasible") for c in candidates)):
        return []
    say("gluon: no joint schedule under a warp-specialized consumer's registers; solved again as the one partition "
        "of all the kernel's warps loading its own tiles, as Triton runs the loop")
    one = dataclasses.replace(next((sp for sp in splits if sp.nc == 1), splits[0]), one_partition=True)
    return _tighten(one, kir, machine, dataclasses.replace(options, own_tiles="on"), solve_opts, total, say)


ONE_STAGE_WHEN_SPILLED = True    # ``_in_one_stage``: run 203 b, one stage faster on all four kernels (+1 to +53 %)


def _in_one_stage(splits: list["_Split"], candidates: list[Candidate], kir: KernelIR, machine: Machine, options: Any,
                  solve_opts: SolveOptions, budget: float, say: Callable[[str], None]) -> list[Candidate]:
    """Where ptxas spilled in the loop of every kernel the splits made (none clean), each warp-specialized split
    that made one solved again in one stage (every op of an iteration before the next iteration's, as Triton keeps
    a loop's dots: no tile held across the iteration, ``one_stage_chain``), tightened and staged as ``_tighten``
    does until ptxas allocates a kernel clean, which ``_choose`` then keeps, as ``_tighten`` does for the one
    partition. Run 203 b (H200): the four kernels the route writes so, each committed (spilled) against its one-stage
    kernel: Performer's key state 56.6 -> 86.8 TFLOP/s (+53 %: its fp32 phi [64, 128] no longer held a stage; 73 spill
    instructions a trip against 1409 cycles predicted, 2044 in one stage), square_attention 267.8 -> 325.7 (+22 %,
    x1.11 of Triton's default), T5's bucketed attention 48.3 -> 54.8 (+13 %), FLA's reverse cumsum norm 3.979 ->
    3.948 ms (+1 %, its iteration predicted 2.7x longer). GPTQ's two GEMMs still spill in one stage and vLLM's ROCm
    FA forward's wgmmas are serialised there: those keep the pipelined kernels, ranked as before."""
    if not ONE_STAGE_WHEN_SPILLED:
        return []
    out: list[Candidate] = []
    for sp in splits:
        made = [c for c in candidates if c.graph is sp.graph and c.kernel is not None and c.ptxas is not None]
        if sp.one_partition or not made or any(c.ptxas.serialized for c in made):
            continue
        say(f"gluon: {sp.nc} row sub-tile(s): every kernel spilled registers in its loop; solved again in one stage")
        found = _tighten(sp, kir, machine, options, solve_opts, budget, say, one_stage=True)
        out += [dataclasses.replace(c, kernel=dataclasses.replace(c.kernel, decisions=c.kernel.decisions + (
            "one stage: every kernel of the pipelined schedules spilled registers in its loop (ptxas); solved again "
            "with each iteration's ops before the next's, no tile held across the iteration",)))
            if c.kernel is not None else c for c in found]
    return out


ONE_PARTITION_ONLY = ("computes a value the producer's copies need", "runs an atomic before the loop once",
                      "next tile may not come from an op that writes memory in a kernel of several partitions")


def _producer_waits(c: Candidate) -> bool:
    """``c``'s kernel was refused because the producer's copies read a result of a loop beside the scheduled one
    that only its consumers run (``plan.sibling``), or of an atomic before the loop that only the first consumer
    runs (a ticket: ``kernel._once``): written as one partition, that partition runs both."""
    return c.kernel is None and any(m in (c.error or "") for m in ONE_PARTITION_ONLY)


def _refused_registers(c: Candidate) -> bool:
    """``c``'s schedule was solved and refused before ptxas: its tiles cannot fit the consumer's register file."""
    return c.kernel is None and "cannot fit the register file" in (c.error or "")


ONE_STAGE_TIMED = "timed at launch: the same loop in one stage"   # ``_fewer_stages``'s decision begins so
FEW_WARPS = 16    # warps an SM (a quarter of its 64) at most, for ``_fewer_stages`` to try the kernel in one stage


def _fewer_stages(c: Candidate, sp: _Split, kir: KernelIR, machine: Machine, options: Any, solve_opts: SolveOptions,
                  budget: float, say: Callable[[str], None]) -> list[Candidate]:
    """``c``, a clean kernel of one partition (no producer, its registers as ptxas allocates them) whose loads run a
    stage or more ahead of their readers, with the same loop solved in one stage beside it where ptxas allocates that
    clean in more CTAs an SM (its loads no longer held across the iteration), at most ``FEW_WARPS`` warps an SM held
    by ``c``. ``--one-stage auto``: one module of the two, the launch timing them on a key's first launch and running
    the faster (``with_timed_choice``); ``on``: both candidates, ``_choose`` ranking them per SM; ``off``: ``c`` alone.
    Nothing in the schedule tells which runs faster. Run 139, eleven such pairs, pipelined against one stage: at 8-12
    warps an SM, stable-fast's group norm x1.10 (1 -> 3 CTAs), decode_attention x1.20 (3 -> 7), FLA's HGRN chunk_o
    x1.01, vLLM's paged attention x0.95; at 20-40, FLA's DPLR recurrence x0.44, FlagGems' argmax x0.57, softmax_rows
    x0.59, awq_gemm x0.92. Run 140, two with a dot, the batched 3-D dot x0.75 and vLLM's MLA decode x0.82; run 142,
    three without, Liger's DyT backward x0.69, Liger's LayerNorm backward x0.97, the NF4 GEMV x0.84: a rule fitted
    on one set failed on the next. Run 219, four pipelined kernels at 8-16 warps an SM behind Triton's default, whose
    compile of the loop runs it in one stage in more CTAs: DeepSpeed's residual layer norm x0.71 (1 CTA against
    Triton's 2), Liger's sparsemax backward x0.84 (1 against 3), Mamba's ddAcs x0.82, sglang's MoE router x0.87
    (3 against 8). So the launch measures the two."""
    k = c.kernel
    asked = getattr(options, "one_stage", "auto")
    if (k is None or k.plan is None or k.maxnreg is not None or len(k.plan.partitions) != 1
            or max(p.stages for p in k.plan.partitions) < 2 or getattr(options, "prefetch", "auto") != "auto"
            or c.ctas_per_sm * k.num_warps > FEW_WARPS or asked == "off"
            or (asked == "on" and any(o.kind == "dot" for o in sp.graph.ops))):
        return [c]
    d = _generated(_candidate(sp, machine, options, solve_opts, budget, c.hold, c.reg_limit, one_stage=True), kir,
                   machine, options)
    if not d.clean or d.ctas_per_sm <= c.ctas_per_sm or d.kernel is None or d.ptxas is None:
        regs = ((f" ({d.ptxas.registers} registers)", f" ({c.ptxas.registers})")
                if d.ptxas is not None and c.ptxas is not None else ("", ""))
        say(f"gluon: the loop in one stage: {d.error or (d.ptxas.problem() if d.ptxas is not None else '') or 'clean'}"
            f", {d.ctas_per_sm} CTA(s) an SM{regs[0]} against the pipelined kernel's {c.ctas_per_sm}{regs[1]}; not kept")
        return [c]
    _say_candidate(d, say)
    if asked == "on":
        return [c, d]
    said = (f"I={d.schedule.ii} {d.schedule.status} among one-stage schedules, ptxas {d.ptxas.registers} registers, "
            f"{d.ctas_per_sm} CTA(s) an SM against this kernel's {c.ctas_per_sm}"
            + (f" at {c.ptxas.registers}" if c.ptxas is not None else ""))
    line = (f"{ONE_STAGE_TIMED}, `{SHORT_KERNEL}` ({said}), beside this pipelined kernel; "
            f"each launch key's first launch times both, {TIMED_ROUNDS} rounds of {TIMED_RUNS} launches each, its "
            "tensors restored after, and runs the faster from then on (runs 139-142 and 219: one stage x0.44-1.20 of "
            "the pipelined kernel's speed over eighteen loops; nothing in the schedule tells them apart)")
    both = with_timed_choice(k, d.kernel, said, c.ctas_per_sm, d.ctas_per_sm, line=line,
                             schedule=d.schedule.to_dict())
    say("gluon: the loop in one stage " + (f"timed against the pipelined kernel at launch ({said})" if both is not None
                                           else "not kept (names)"))
    return [c if both is None else dataclasses.replace(c, kernel=both)]


SHORT_LOOP = 2     # a loop of at most this many iterations a CTA (constants) has nothing for a producer to stream


def _own_tiles(c: Candidate, sp: _Split, kir: KernelIR, machine: Machine, options: Any, solve_opts: SolveOptions,
               budget: float, say: Callable[[str], None]) -> Candidate:
    """``c``, or the kernel Triton compiles for its loop: one partition of the kernel's warps loading its own tiles
    and storing them to shared memory for the wgmma, no producer. Where the producer would copy the dots' pointer
    tiles through its registers at every launch (no address known aligned, so cp.async cannot copy them: sizes
    loaded from memory), solved again in one stage (run 49: the producer's copies 2 bytes at a time ran
    i64_bounds_gemm at x0.42 Triton's best, its 64 registers too few for the tiles' pointers; Triton's one partition
    holds them in 255); where the loop runs at most ``SHORT_LOOP`` iterations a CTA, its bounds constants, as
    scheduled, or solved again with the loads holding the warps that issue them where it was solved for a producer's
    asynchronous copies (``--async-copies``; run 79: FLA's chunk_o, two iterations of K, x0.85 -> x1.01;
    a producer's hand-offs and the CTAs it keeps off the SM buy no overlap there; run 177: chunk_kkt's schedule solved
    for a producer's asynchronous copies, 4 stages, ran x0.89 of the one solved for its own loads). Kept where ptxas
    allocates it with no spill in the loop."""
    k = c.kernel
    if k is None or not k.plan.rings or sp.nc != 1 or getattr(options, "own_tiles", "auto") != "auto":
        return c
    uncopyable = not k.cp_async and any(r.copied for r in k.plan.rings)
    trips = [t for t in (constant_trips(ln) for ln in k.source.splitlines() if "twill_n = " in ln) if t is not None]
    short = bool(trips) and max(trips) <= SHORT_LOOP
    if not (uncopyable or short):
        return c
    if uncopyable:
        d = _generated(_candidate(sp, machine, options, solve_opts, budget, c.hold, c.reg_limit, one_stage=True,
                                  own_tiles=True), kir, machine, options)
        why = "cp.async cannot copy them"
    else:
        again = (_candidate(sp, machine, options, solve_opts, budget, c.hold, c.reg_limit, c.lookahead, own_tiles=True)
                 if c.schedule.get("async_copies") else
                 dataclasses.replace(c, schedule=c.schedule.with_extra(own_tiles=True), kernel=None))
        d = _generated(again, kir, machine, options)
        why = f"a loop of {max(trips)} iteration(s) a CTA"
    ok = d.kernel is not None and d.ptxas is not None and not d.ptxas.spills_in_loop and not d.ptxas.serialized
    say(f"gluon: the dots' tiles loaded by the consumer itself (no producer: {why}): "
        f"{d.ptxas.problem() or 'clean' if d.ptxas is not None else d.error}; {'kept' if ok else 'not kept'}")
    return d if ok else c


SHORT_LOOP_LIMIT = 8    # ``--short-loops auto``: at most this many iterations a CTA, the one-partition kernel
                        # where it holds more CTAs an SM than the producer (run 159: at as many, never ahead)
SHORT_LOOP_LIMIT_MORE_CTAS = 32    # ... at most this many where it holds more CTAs an SM than the producer's and
                                   # the launch's CTAs outnumber what the SMs hold of the producer's (run 95)
SHORT_LOOP_CTAS_SURE = 2    # ... run unconditionally where it holds this many times the producer's CTAs an SM, else
                            # timed against the producer's at launch (run 156: 3 against 2, either way by up to 36 %)


def _short_loops(res: GluonResult, kir: KernelIR, machine: Machine, options: Any,
                 say: Callable[[str], None]) -> GluonResult:
    """``res`` with its chosen kernel, a producer streaming one consumer's tiles over a loop whose trip count the
    launch's arguments give, holding beside it the one-partition kernel of the same schedule that the launch runs
    where the loop is short (``codegen.gluon.short``); unchanged where that kernel is not made clean (ptxas spills
    in its loop or serialises its wgmmas), where it holds no more CTAs an SM than the producer (``--short-loops
    auto``; run 159, at as many, one partition at 2-8 iterations: chunk_scan x0.81-0.85 of the producer's speed,
    Triton's tutorial GEMM x0.91-0.95, FLA's chunk_bwd_dh x0.90-0.98, an int4 GEMM x0.98-0.99, Mamba's bmm
    x0.99-1.03), or ``--short-loops off``, ``--own-tiles`` given. Short: at most 8 iterations a CTA, or 32 where the
    launch has more CTAs than the SMs hold of the producer's, which the launch counts (run 95: the blocksparse
    matmul, 5 CTAs against 2, x1.06 and x1.00 of Triton's best at 16 and 32 iterations against the producer's x0.71
    and x0.72; chunk_state and prefix_scores, 64 and 128, with 4 and 6 CTAs against 2, too, run 79). Where the one
    partition holds more CTAs an SM than the producer but fewer than ``SHORT_LOOP_CTAS_SURE`` times as many, the
    launch times the two on a launch key's first launch in those bounds and runs the faster (run 156, 3 CTAs against
    2 at 8-32 iterations: one partition x0.64-0.73 on vLLM's MoE, x0.84-0.95 on FlagGems' mm, x0.75-0.88 on
    triton_kernels' matmul_ogs, x1.09-1.18 on FBGEMM's tf32 jagged bmm)."""
    c, asked = res.chosen, getattr(options, "short_loops", "auto")
    k = c.kernel if c is not None else None
    if (k is None or k.plan is None or k.plan.producer is None or not k.plan.rings or c.subtiles != 1
            or asked == "off" or getattr(options, "own_tiles", "auto") != "auto"):
        return res
    found = launch_trips(k.plan)
    if found is None:
        return res
    trips, exact = found
    d = _short_kernel(c, kir, machine, options)
    ok = _clean_loop(d)
    if ok and asked == "auto" and d.ctas_per_sm <= c.ctas_per_sm:
        say(f"gluon: short loops ({trips} iterations a CTA): the one-partition kernel not kept: it holds "
            f"{d.ctas_per_sm} CTA(s) an SM, no more than the producer's {c.ctas_per_sm} (run 159: at as many, "
            "x0.81-1.03 of the producer's speed at 2-8 iterations on five kernels)")
        return res
    more = ok and d.ctas_per_sm > c.ctas_per_sm and asked == "auto"
    timed = more and d.ctas_per_sm < SHORT_LOOP_CTAS_SURE * c.ctas_per_sm
    limit = SHORT_LOOP_LIMIT if asked == "auto" else int(asked)
    said = (f"ptxas {d.ptxas.registers} registers, {d.ptxas.problem() or 'clean'}, {d.ctas_per_sm} CTA(s) an SM "
            f"against the producer's {c.ctas_per_sm}; {_simulated(d.kernel)}"
            if ok and d.ptxas is not None and d.kernel is not None else "")
    both = with_short_loops(k, d.kernel, trips, limit, said, exact, SHORT_LOOP_LIMIT_MORE_CTAS if more else 0,
                            c.ctas_per_sm, timed) if ok and d.kernel is not None else None
    say(f"gluon: short loops ({trips} iterations a CTA at most {limit}"
        f"{f' or {SHORT_LOOP_LIMIT_MORE_CTAS}' if more else ''}): the one-partition kernel "
        + (f"kept beside the producer's{', timed against it there' if timed else ''}" if both is not None
           else "not kept: " + (
            "its launch differs from the producer's" if ok else
            (d.ptxas.problem() if d.ptxas is not None else d.error))))
    return res if both is None else dataclasses.replace(res, chosen=dataclasses.replace(c, kernel=both))


TIMED_CTAS = 2    # CTAs an SM the one-partition kernel must hold for ``_timed_pair`` to time it against the producer's


def _timed_pair(res: GluonResult, kir: KernelIR, machine: Machine, options: Any,
                say: Callable[[str], None]) -> GluonResult:
    """``res`` with its chosen kernel, a producer streaming the tiles of one 4-warp consumer in one CTA an SM, paired
    with the one-partition kernel of the same schedule (its warps loading their own tiles, as Triton's compile of the
    loop) where that kernel holds ``TIMED_CTAS`` CTAs an SM, copied as many iterations ahead as still holds them
    (``--prefetch auto`` downward): the launch times the two on each key's first launch and runs the faster
    (``codegen.gluon.short.with_timed_choice``). One consumer warp group issues every wgmma of its CTA, so another
    CTA's may overlap its other work, or not: runs 127-128 measured one partition +18 % (FlagAttention's dK / dV),
    +35 % (Mamba-2's bmm backward), +9 % (DeepSeek's fp8 GEMM) and -26 % (FLA's retention), -3 % (FLA's BASED), -26 %
    (FlagAttention's piecewise), at the same CTA counts, and nothing in the schedule tells the two sets apart.
    Also where the producer's kernel holds two CTAs an SM in a kernel whose own loop does not step over the launch's
    programs (``_own_loop``), against a one-partition kernel holding more (run 204: torchtitan's MoE weight gradient,
    x0.50 of Triton's default in 2 CTAs, x1.00 as one partition in 5). Unchanged where the launch already chooses by
    trip count (``_short_loops``), ``--own-tiles`` or ``--prefetch`` is given, or no such kernel compiles."""
    c = res.chosen
    k = c.kernel if c is not None else None
    if (k is None or k.plan is None or k.short or k.plan.producer is None or not k.plan.rings or c.subtiles != 1
            or len(k.plan.consumers) != 1 or k.plan.consumers[0].warps != 4 or c.ctas_per_sm > 2
            or (c.ctas_per_sm == 2 and not _own_loop(kir, c.graph))
            or getattr(options, "own_tiles", "auto") != "auto" or getattr(options, "prefetch", "auto") != "auto"):
        return res
    least = max(TIMED_CTAS, c.ctas_per_sm + 1)     # more CTAs an SM than the producer's kernel holds
    own = dataclasses.replace(c, schedule=c.schedule.with_extra(own_tiles=True), kernel=None)
    ahead: int | None = None             # auto first, then one fewer each time
    tried = []
    while True:
        asked = options if ahead is None else dataclasses.replace(options, prefetch=str(ahead))
        d = _generated(own, kir, machine, asked)
        if d.kernel is None or d.ptxas is None:
            tried.append(f"{'auto' if ahead is None else ahead} ahead: {d.error or 'no ptxas report'}")
            break
        held = occupancy(d.ptxas.registers, d.kernel.num_warps, d.shared or d.kernel.plan.smem_bytes)   # as compiled
        tried.append(f"{d.kernel.plan.prefetch} ahead: {held} CTA(s) an SM ({d.shared} bytes compiled)")
        if held >= least:
            said = (f"its tiles loaded {d.kernel.plan.prefetch} iteration(s) ahead, {d.shared} bytes of shared memory "
                    f"compiled, ptxas {d.ptxas.registers} registers, {d.ptxas.problem() or 'clean'}; "
                    f"{_simulated(d.kernel)}")
            both = with_timed_choice(k, d.kernel, said, c.ctas_per_sm, held)
            say(f"gluon: one consumer warp group in {c.ctas_per_sm} CTA(s) an SM; the one-partition kernel holds "
                f"{held}: {'; '.join(tried)}; " + ("timed against it at launch" if both is not None
                                                   else "not kept (names)"))
            return res if both is None else dataclasses.replace(res, chosen=dataclasses.replace(c, kernel=both))
        if d.kernel.plan.prefetch == 0:
            break
        ahead = d.kernel.plan.prefetch - 1
    say(f"gluon: one consumer warp group in {c.ctas_per_sm} CTA(s) an SM; the one-partition kernel not timed against "
        f"it: {'; '.join(tried)}")
    return res


def _own_loop(kir: KernelIR, graph: LoopGraph) -> bool:
    """Whether the scheduled loop is inside the kernel's own loop that does not step over the launch's programs
    (``generate.grid_strided``): each program scans its own work, latency its CTAs an SM hide (run 204: torchtitan's
    MoE weight gradient, each program's 64 groups behind one dependent index load each, the producer's kernel in 2
    CTAs an SM x0.50 of Triton's default, its one partition x1.00)."""
    fn, tile_loop = _kernel_tile_loop(kir, graph)
    return tile_loop is not None and not grid_strided(fn, tile_loop)


def nest_carries_tiles(kir: KernelIR, graph: LoopGraph) -> bool:
    """Whether the kernel's own loop around the scheduled loop carries a tile from iteration to iteration (RoIAlign's
    accumulator over its sampling grid's rows; ``TileLoop.tensors``)."""
    _, tile_loop = _kernel_tile_loop(kir, graph)
    return tile_loop is not None and bool(tile_loop.tensors)


def _kernel_tile_loop(kir: KernelIR, graph: LoopGraph) -> tuple[Any, Any]:
    """The kernel's function and its own tile loop as the back end reads them (``kernel_function``); (None, None)
    where it does not read the kernel."""
    try:
        fn, tile_loop, _ = kernel_function(kir.text, graph)
    except TwillError:
        return None, None
    return fn, tile_loop


def _short_kernel(c: Candidate, kir: KernelIR, machine: Machine, options: Any) -> Candidate:
    """The one-partition kernel of ``c``'s schedule for short loops. With ``--prefetch auto``: its tiles stored
    through registers a stage ahead (``--prefetch 0``) where ptxas keeps that loop clean; else copied ahead as the
    author's ``num_stages`` says, but 1 ahead where it holds no more CTAs an SM than the producer (its fewer shared
    bytes may hold more; at as many, ``_short_loops`` keeps it only where ``--short-loops N`` asks). Run 96, 4-8
    iterations: Mamba's chunk state 59.5 TFLOP/s stored against 53.6 copied 1 ahead; its bmm (stores serialise its
    wgmmas) 0.175 ms copied 1 ahead (run 90) against 0.199 3 ahead; the blocksparse matmul (stores serialise its
    wgmmas: 159 against 199; 5 CTAs an SM against 2) 199-201 copied 1 or 3 ahead at 4 iterations, 278.5 3 ahead
    against 269.4 1 ahead at 32."""
    own = dataclasses.replace(c, schedule=c.schedule.with_extra(own_tiles=True), kernel=None)
    if getattr(options, "prefetch", "auto") != "auto":
        return _generated(own, kir, machine, options)
    stored = _generated(own, kir, machine, dataclasses.replace(options, prefetch="0"))
    if _clean_loop(stored):
        return stored
    d = _generated(own, kir, machine, options)
    if _clean_loop(d) and d.ctas_per_sm <= c.ctas_per_sm and d.kernel is not None and d.kernel.plan.prefetch > 1:
        one = _generated(own, kir, machine, dataclasses.replace(options, prefetch="1"))
        return one if _clean_loop(one) else d
    return d


def _clean_loop(d: Candidate) -> bool:
    """A kernel was made, and ptxas neither spills in its loop nor serialises its wgmmas."""
    return d.kernel is not None and d.ptxas is not None and not d.ptxas.spills_in_loop and not d.ptxas.serialized


def _simulated(k: GluonKernel) -> str:
    """What the barrier protocol's simulation said of a kernel, from its decisions."""
    return next((d.split(":", 1)[1].split(";")[0].strip() for d in k.decisions if d.startswith("barrier protocol")),
                "barrier protocol not simulated")


def _lookahead(sp: _Split, c: Candidate, kir: KernelIR, machine: Machine, options: Any, solve_opts: SolveOptions,
               say: Callable[[str], None]) -> list[Candidate]:
    """The clean candidate ``c``'s split solved again under LOOKAHEAD (a group's dependent dots an iteration
    apart, so its wait for the first leaves the second's previous instance in flight) at ``c``'s register
    limit: for each row sub-tile alone, then for all (a sub-tile's dots share a group); each generated and
    checked, each search at most ``LOOKAHEAD_SECONDS``. Nothing when the split has no dependent dots."""
    if not getattr(options, "gluon_lookahead", False):
        return []
    subs = sorted({subtile_of(sp.graph.ops[a]) for a, _, _ in lookahead_pairs(sp.graph)}, key=lambda x: (x is None, x))
    variants = [(x,) for x in subs] + ([tuple(subs)] if len(subs) > 1 else [])
    out: list[Candidate] = []
    for v in variants:
        d = _candidate(sp, machine, options, solve_opts, LOOKAHEAD_SECONDS, c.hold, c.reg_limit, lookahead=v)
        d = _generated(d, kir, machine, options)
        out.append(d)
        _say_candidate(d, say)
    return out


def _candidate(sp: _Split, machine: Machine, options: Any, solve_opts: SolveOptions, budget: float, hold: bool,
               limit: int, lookahead: tuple[int | None, ...] = (), one_stage: bool = False,
               own_tiles: bool = False, held_copies: bool = False, refuted_below: int = 0) -> Candidate:
    # As the generated kernel runs: no register tile crosses between compute groups (the partitions
    # pass values only through the producer's load rings), and (``hold``) a dot's register operands
    # stay live until the dot retires (wgmma is issued asynchronously, waited for where its result is read).
    # --sequential-groups (experimental): each partition issues its ops in order, a wgmma holding it only
    # while it issues, wgmmas retired in issue order (GROUP SEQUENCE and RETIREMENT, twill.solve.joint_problem);
    # run 4 measured its FA forward kernel 29 % slower than the default's (bench/results/gluon/runs/NOTES.md).
    # --async-copies (experimental): the producer's ring copies hold it for their issue, not their latency (not where
    # ``held_copies``: the copies go through the producer's registers, ``_tighten``); run 179: mixed on the H200
    copies = getattr(options, "async_copies", False) and not (own_tiles or held_copies or sp.one_partition)
    jopts = JointOptions(time_limit=min(options.time_limit, budget), total_time=budget, threads=solve_opts.threads,
                         reg_limit=limit, modulo_backend=options.backend, no_cross_warp=True, hold_async=hold,
                         async_issue=(machine.written_cost("wgmma_issue") or 1.0)
                         if getattr(options, "sequential_groups", False) else None, lookahead=lookahead,
                         one_partition=sp.one_partition, stage_order=one_stage_chain(sp.graph) if one_stage
                         else (), async_copies=copies, issued_loads=getattr(options, "issued_loads", False),
                         extra_stages=0 if one_stage else getattr(options, "extra_stages", 0),
                         refuted_below=refuted_below, keep_ceiling=sp.one_partition,
                         together=() if sp.one_partition else sp.together)
    joint = joint_search(sp.graph, machine, jopts, seed=sp.modulo.with_extra(normalization=sp.norm),
                         backend=options.joint_backend)
    if joint.status in ("optimal", "feasible"):
        bad = verify(sp.graph, machine, joint)
        if bad:
            raise TwillError("schedule failed the independent checker", where=sp.graph.name,
                             found="; ".join(str(v) for v in bad[:3]))
    # held to one stage (the tiles fill the register file): the pointer loads too, not a stage ahead of their readers
    joint = joint.with_extra(loads_ahead=0, one_stage=True) if one_stage else joint
    joint = joint.with_extra(own_tiles=True) if own_tiles else joint      # the consumers load the dots' tiles
    joint = joint.with_extra(async_copies=True) if copies else joint      # ``--async-copies``
    joint = joint.with_extra(issued_loads=True) if getattr(options, "issued_loads", False) else joint
    busiest = res_mii(ModuloProblem.from_graph(sp.costed, machine.units))
    floor = issue_floor(sp.costed, joint, machine, sp.nc) if joint.status in ("optimal", "feasible") else 0.0
    return Candidate(sp.nc, sp.graph, sp.costed, joint.with_extra(normalization=sp.norm, row_split=sp.nc), sp.norm,
                     limit, budget, hold, lookahead, calibration=sp.calibration, busiest=busiest, issue_floor=floor)


def issue_floor(costed: LoopGraph, schedule: Schedule, machine: Machine, nc: int) -> float:
    """Where the row split makes ``nc`` > 1 consumers, each of the kernel's warps over ``nc``: the cycles the busiest
    compute group's warps take to issue one iteration of its ops, each elementwise op at the rate its warps reach
    (``twill.machine.cost.issue_factor``: 8 warps issue ALU work at the SM's full rate, 4 at half, the pessimistic end
    of the 10-60 % run 168 measured them to lose by the op mix), each dot's
    asynchronous wgmma at its measured issue (``wgmma_issue``), every other op its cycles (the loads and stores, on
    the producer or asynchronous, left out). An iteration takes no less. 0 for one consumer (its warps' rate is the
    model's). Runs 165-166: AMD's dropout attention, two 4-warp consumers (II 4894 cycles, each consumer 5425 to issue
    its Philox and softmax) ran x0.58 of one 8-warp consumer (5147), which the II alone put 5 % behind (figures from
    before the integer ops' costs of runs 165-170, ``twill.graph.build.FMA_SLOTS``, which price Philox's rounds about
    2x higher); the FA forward's consumers issue theirs in about 1500 of its 2045."""
    if nc <= 1:
        return 0.0
    warps = int(costed.get("num_warps") or 4) // nc
    issue = machine.written_cost("wgmma_issue") or 0.0
    groups: dict[int, float] = {}
    where = schedule.warp_map
    for o in costed.ops:
        group = where.get(o.id)
        if group is None or o.streaming or o.kind in ("load", "tma_load", "store", "tma_store"):
            continue
        cost = issue if o.kind == "dot" else (o.cycles or 0) * issue_factor(o, machine, warps)
        groups[group] = groups.get(group, 0.0) + cost
    return max(groups.values(), default=0.0)


def one_stage_chain(g: LoopGraph) -> tuple[tuple[str, str], ...]:
    """stage(a) <= stage(b) around a cycle of every op: the schedule in one stage."""
    ids = [o.id for o in g.ops]
    return tuple(zip(ids, ids[1:] + ids[:1]))


def sibling_schedules(c: Candidate, kir: KernelIR, machine: Machine, options: Any) -> tuple[tuple[LoopGraph, Schedule], ...]:
    """Each loop of the kernel beside the scheduled one (``sibling_loops``: causal attention's diagonal block
    after the blocks before it), as the generated kernel writes it in ``c``'s partitions: its graph split as
    ``c``'s and costed and normalised as the scheduled loop's, solved jointly with every op pinned to the warp
    group that holds its row sub-tile in ``c`` (loads to the producer's), under ``c``'s register limit and
    operand lifetimes, in one stage (every op of an iteration starts before the next iteration's: no
    iteration's tiles live on into the next, so the partition's registers, sized for the scheduled loop,
    hold it); checked by the independent checker."""
    out = []
    info = c.schedule.get("warp_groups") or {}
    copies = bool(c.schedule.get("async_copies"))       # solved as the scheduled loop was (``--async-copies``)
    issued = bool(c.schedule.get("issued_loads"))       # (``--issued-loads``)
    kir = dataclasses.replace(kir, text=distinct_loop_names(kir.text, c.graph))   # the names ``generate`` writes
    fn = read_function(distinct_ranges(kir.text) if c.subtiles > 1 else kir.text, c.graph.name)   # as ``generate``
    for index in sibling_loops(kir.text, c.graph):
        loop = fn.module.loops()[index]      # (a loop holding a loop is written as it runs: ``plain_nest``)
        g = graph_of(kir, machine.target, index, where=kir.kernel)
        split = split_graph(g, row_split(fn, loop), loop.body.ops if loop.body else [], c.subtiles)
        scale = c.calibration.scale if c.calibration is not None else (
            written_scale(machine) if getattr(options, "sequential_groups", False) else None)
        scaled, norm = normalize_graph(annotate_costs(split, machine, scale=scale), options.normalize_bound)
        chain = one_stage_chain(scaled)
        jopts = JointOptions(time_limit=options.time_limit, total_time=options.time_limit, reg_limit=c.reg_limit,
                             modulo_backend=options.backend, no_cross_warp=True, hold_async=c.hold,
                             stage_order=chain, warp_groups=int(info.get("compute") or 1),
                             scale=float(norm["scale"]), async_copies=copies, issued_loads=issued)
        problem = JointProblem.from_graph(scaled, machine, warp_groups=jopts.warp_groups, reg_limit=c.reg_limit,
                                          scale=float(norm["scale"]), no_cross_warp=True, hold_async=c.hold,
                                          stage_order=chain, async_copies=copies, issued_loads=issued,
                                          one_partition=_loads_own(c))
        warps = _sibling_warps(c, scaled, index)
        problem = dataclasses.replace(problem, pinned=tuple(warps[v] for v in problem.nodes))
        joint = joint_search(problem, machine, jopts, backend=options.joint_backend)
        if joint.status not in ("optimal", "feasible"):
            raise UnsupportedError("a loop beside the scheduled one has no single-stage schedule in its partitions",
                                   where=f"{kir.kernel}, {source_where(loop)}", found=joint.status)
        bad = verify(scaled, machine, joint)
        if bad:
            raise TwillError("a sibling loop's schedule failed the independent checker", where=scaled.name,
                             found="; ".join(str(v) for v in bad[:3]))
        joint = joint.with_extra(normalization=norm, row_split=c.subtiles, single_stage=True)
        out.append((scaled, joint.with_extra(loads_ahead=0) if c.schedule.get("loads_ahead") == 0 else joint))
    return tuple(out)


def _loads_own(c: Candidate) -> bool:
    """Whether ``c``'s loops are solved as one group of the kernel's warps issuing their own loads: so solved, or
    one compute group and no variable-latency group (a scheduled loop that loads nothing, only stores: MInference's
    block sums, session 90, whose loops before it then failed the checker with their loads in the compute group)."""
    info = c.schedule.get("warp_groups") or {}
    return bool((c.schedule.get("joint") or {}).get("one_partition")) or (
        info.get("variable_latency") is None and int(info.get("compute") or 1) == 1)


def _sibling_warps(c: Candidate, g: LoopGraph, index: int) -> dict[str, int]:
    """The warp group of each op of sibling loop graph ``g``: the producer's for a load, else the group that
    computes the same row sub-tile in ``c``'s schedule."""
    warp = c.schedule.warp_map
    vl = (c.schedule.get("warp_groups") or {}).get("variable_latency")
    groups: dict[int | None, set[int]] = {}
    for o in c.graph.ops:
        if not o.variable_latency and o.id in warp:
            groups.setdefault(subtile_of(o), set()).add(warp[o.id])
    out = {}
    for o in g.ops:
        found = {vl} if o.variable_latency and vl is not None else groups.get(subtile_of(o))
        if found is None and len(groups) == 1:
            found = next(iter(groups.values()))
        if not found or len(found) != 1:
            raise UnsupportedError("the Gluon back end writes a later loop's op in the warp group of its row sub-tile",
                                   where=f"{g.name}, loop {index}, {o.id}",
                                   expected="one compute group per row sub-tile in the scheduled loop",
                                   found=f"groups {sorted(found or ())} for sub-tile {subtile_of(o)}")
        out[o.id] = next(iter(found))
    return out


def _generated(c: Candidate, kir: KernelIR, machine: Machine, options: Any) -> Candidate:
    """``c`` with its kernel generated, compiled offline and checked by ptxas (or the reason it was not)."""
    if c.cycles == math.inf:
        return c
    return _kernel(c, kir, machine, options, stage=False)


def _staged(c: Candidate, kir: KernelIR, machine: Machine, options: Any) -> Candidate:
    """``c`` (a kernel ptxas spills or serialises) generated again from the same schedule with its dots'
    register A operands staged through shared memory; the better allocation of the two kept. Only when no
    candidate of the split is clean: a tile in registers costs no store (the FA forward keeps P there)."""
    if c.kernel is None or c.ptxas is None or c.ptxas.clean or not c.kernel.plan.staging_possible:
        return c
    s = _kernel(c, kir, machine, options, stage=True)
    return s if s.kernel is not None and s.ptxas is not None and s.ptxas.cost < c.ptxas.cost else c


def _in_readers_stage(c: Candidate, kir: KernelIR, machine: Machine, options: Any,
                      say: Callable[[str], None]) -> Candidate:
    """``c`` (a kernel whose loop ptxas spills) generated again from the same schedule with the consumers' pointer
    loads in their readers' stage, not a stage ahead (the schedule's ``loads_ahead`` 0, as Triton runs a load its
    readers hold in registers), kept where ptxas spills fewer instructions in the loop: the loaded tiles are then
    live for less than an iteration, and the registers a loop-invariant pointer tile or shift amount holds (which
    the schedule's register model does not count) no longer meet them there (vLLM's GPTQ / AWQ MoE: three [64, 64]
    pointer tiles and two shift-amount tiles beside its loads; 400 spill instructions in the loop, 130 so)."""
    if (c.kernel is None or c.ptxas is None or c.ptxas.clean or c.schedule.get("loads_ahead", 1) == 0
            or c.schedule.get("own_tiles")):
        return c
    why = f"a stage ahead, {c.ptxas.problem()}"
    d = _generated(dataclasses.replace(c, schedule=c.schedule.with_extra(loads_ahead=0, loads_ahead_why=why),
                                       kernel=None), kir, machine, options)
    better = d.kernel is not None and d.ptxas is not None and d.ptxas.cost < c.ptxas.cost
    say(f"gluon: {c.subtiles} row sub-tile(s) under {c.reg_limit} registers, the consumers' loads in their readers' "
        f"stage: {(d.ptxas.problem() or 'clean') if d.ptxas is not None else d.error}; "
        f"{'kept' if better else 'not kept'} (was: {c.ptxas.problem()})")
    return d if better else c


def _kernel(c: Candidate, kir: KernelIR, machine: Machine, options: Any, stage: bool) -> Candidate:
    mode = getattr(options, "persistent", "auto")
    asked_async = getattr(options, "async_tiles", "auto")
    cp_async, tma, chains, two_ctas, copy_wgmma = [True], [True], [False], [True], [asked_async == "on"]
    halved = [False]             # the last kernel made has the halved register limit (two CTAs per SM)
    own_tiles, prefetch = [bool(c.schedule.get("own_tiles")) or getattr(options, "own_tiles", "auto") == "on"], \
        [_asked_prefetch(options)]      # a consumer's own wgmma tiles copied ahead (``generate``)

    def make(own_stores: bool, copy_warps: int, retry: bool = True) -> GluonKernel:
        try:
            k = generate(kir.text, c.graph, c.schedule, machine, kir.spec,
                            tc_order=getattr(options, "tc_order", False),
                            persistent=None if mode == "auto" else mode == "on", stage=stage, own_stores=own_stores,
                            tree_reductions=getattr(options, "tree_reductions", False),
                            reducer=getattr(options, "reducer", True), siblings=siblings, copy_warps=copy_warps,
                            cp_async=cp_async[0], chains=chains[0], tma=tma[0], two_ctas=two_ctas[0],
                            copy_wgmma=copy_wgmma[0], own_tiles=own_tiles[0], prefetch=prefetch[0])
            halved[0] = k.plan.two_ctas
            return k
        except UnsupportedError as e:   # a later loop loads tiles through other pointers than the scheduled loop's
            # rings stream (vLLM's prefix prefill: the cached context through the block table, then the new tokens):
            # no producer for pointer tiles, each partition loading its own in both loops
            if own_tiles[0] or not retry or "streams a later loop's tiles" not in str(e):
                raise
            own_tiles[0] = True
            return make(own_stores, copy_warps, False)

    def build_once(copy_warps: int) -> tuple[GluonKernel, Any]:
        try:
            k = make(True, copy_warps)
            try:
                return k, compile_offline(k, machine)
            except CompileError as e:
                _shallower_for(k, e)
                if k.plan.boxed:         # the TMA path does not compile: the boxes copied as the other tiles are
                    compile_offline(k, machine, tma=False)  # the other path's error, if it has one, is the kernel's
                    tma[0] = False
                    k = make(True, copy_warps)
                    return k, compile_offline(k, machine)
                # where only the copies through registers compile (cp.async cannot copy tiles 4 bytes at a time: a
                # producer's, or a consumer's own, as Triton 3.9 refuses where a mask varies along the vectors)
                if not cp_async[0] or not (any(r.copied for r in k.plan.rings) or k.plan.asyncs):
                    raise
                compile_offline(k, machine, copy=False)    # the other path's error, if it has one, is the kernel's
                cp_async[0] = False
                k = make(True, copy_warps)
                return k, compile_offline(k, machine)
        except (CompileError, UnsupportedError) as e:
            # stores in buffers of their own (a persistent kernel's next tiles loaded during its epilogue) may
            # not fit beside the other buffers or Triton's scratch: then through the loaded tiles' buffers
            if "more shared memory" not in str(e) and "do not fit shared memory" not in str(e):
                raise
            k = make(False, copy_warps)
            return k, compile_offline(k, machine)
    build = _shallower(build_once, prefetch)
    try:
        siblings = sibling_schedules(c, kir, machine, options)
        k, compiled = _first_build(build, machine, halved, two_ctas)
        k, compiled, report = _unserialised(build, machine, k, compiled, chains)
        halved_spilled = False
        if k.plan.two_ctas and report is not None and not report.clean:   # the halved limit spilled: one CTA
            two_ctas[0] = False              # per SM and the whole register file (run 43: lightning_attention)
            whole = _copy_warps(build, machine)
            alone = ptxas_report(whole[1], machine)
            if alone is not None and alone.cost < report.cost:
                k, compiled = whole
                report = alone
                halved_spilled = True
            else:
                two_ctas[0] = True
        if (k.plan.wgmma_copyable and asked_async == "auto" and report is not None
                and (report.spills_in_loop or halved_spilled)):
            k, compiled = _copied((k, compiled), build, machine, report, halved_spilled, copy_wgmma, two_ctas)
        return _checked(c, k, compiled, machine)
    except TwillError as e:
        return dataclasses.replace(c, error=str(e))
    except Exception as e:  # noqa: BLE001 - a defect of the back end on this kernel: the candidate refused in one
        return dataclasses.replace(c, error=internal_error(e))   # line, the schedule and annotated IR still written


def _copied(made: tuple[GluonKernel, Any], build: Callable[[int], tuple[GluonKernel, Any]], machine: Machine,
            report: PtxasReport, halved_spilled: bool, copy_wgmma: list[bool],
            two_ctas: list[bool]) -> tuple[GluonKernel, Any]:
    """``made`` (its registers spilled in the loop, or at the halved limit of two CTAs an SM) or the kernel with its
    register-read wgmma tiles copied with cp.async as Triton pipelines them (tests/corpus/mx_gemm.py), which frees the
    registers a tile held a stage ahead: at two CTAs an SM where ptxas then allocates it clean (run 136: the fp8
    weight GEMM, 249.4 -> 473.3 TFLOP/s); else at one, kept where its loop spills less (held in registers, a tile
    costs no copy). The two-CTA copy is kept only where it spills no more bytes than ``made`` outside the loop as well
    (run 140: Mamba's bmm backward at 128 registers, clean in its loop but 1852 bytes spilled against 664 at 255, ran
    x0.74; the MXFP4 matmul, no spill either way, x1.15)."""
    copy_wgmma[0] = True
    if halved_spilled:
        two_ctas[0] = True
        copied = _copy_warps(build, machine)
        better = ptxas_report(copied[1], machine)
        if (better is not None and better.clean and copied[0].plan.two_ctas
                and better.spill_stores + better.spill_loads <= report.spill_stores + report.spill_loads):
            return copied
        two_ctas[0] = False
    if not report.spills_in_loop:
        return made
    copied = _copy_warps(build, machine)
    better = ptxas_report(copied[1], machine)
    return copied if better is not None and better.cost[:2] < report.cost[:2] else made


def _asked_prefetch(options: Any) -> int | None:
    asked = getattr(options, "prefetch", "auto")
    return None if asked == "auto" else int(asked)


def _shallower(build: Callable[[int], Any], prefetch: list[int | None]) -> Callable[[int], Any]:
    """``build``, made again with a consumer's own wgmma tiles copied less far ahead, or not at all, where it raises
    ``_Shallower``."""
    def again(copy_warps: int) -> Any:
        while True:
            try:
                return build(copy_warps)
            except _Shallower as e:
                prefetch[0] = e.prefetch
    return again


def _shallower_for(k: GluonKernel, e: CompileError) -> None:
    """Raise ``_Shallower`` where ``k`` copies a consumer's own wgmma tiles ahead and fails to compile for it: its rings
    beside Triton's scratch exceed shared memory (one iteration less ahead), or cp.async cannot copy the tiles (their
    addresses not known contiguous: loaded a stage ahead in registers, as before)."""
    ahead = k.plan.prefetch if any(a.alloc is not None for a in k.plan.asyncs) else 0
    if ahead and "more shared memory" in str(e):
        raise _Shallower(ahead - 1) from None
    if ahead and "cp.async does not support" in str(e):
        raise _Shallower(0) from None


class _Shallower(Exception):
    """The kernel made again with a consumer's own wgmma tiles copied ``prefetch`` iterations ahead (``_kernel``)."""

    def __init__(self, prefetch: int) -> None:
        super().__init__(prefetch)
        self.prefetch = prefetch


def _checked(c: Candidate, k: GluonKernel, compiled: Any, machine: Machine) -> Candidate:
    """``c`` with its compiled kernel ``k``, once the barrier protocol's simulation passes (else refused in one
    line); the simulation, the shared memory and ptxas's report among its decisions, and its replayed cycles."""
    stages, least = max(p.stages for p in k.plan.partitions), k.plan.least_trips
    problems, unsimulated = check_kernel(k.source, k.signature, stages, least)
    if problems:
        return dataclasses.replace(c, error=f"barrier protocol: {problems[0]}")
    trips = trip_counts(stages, least)
    k = dataclasses.replace(k, decisions=k.decisions + (
        "barrier protocol: none (one partition, no mbarrier; not simulated: "
        f"{unsimulated})" if unsimulated and "mbarrier.init(" not in k.source else
        f"barrier protocol: not simulated ({unsimulated})" if unsimulated else
        f"barrier protocol: simulated for {', '.join(map(str, trips))} iterations: no deadlock, every phase "
        "complete; " + (f"the loop must run at least {trips[0]} iteration(s)" if trips[0] else
                        "a loop may run any number of iterations, none included"),))
    shared = int(getattr(compiled.metadata, "shared", 0) or 0)
    k = dataclasses.replace(k, decisions=k.decisions + (
        f"shared memory compiled: {shared} bytes (the planned buffers and Triton's own scratch)",))
    report = ptxas_report(compiled, machine)
    if report is not None and not report.clean:
        k = dataclasses.replace(k, decisions=k.decisions + (f"registers: {report.problem()}",))
    return dataclasses.replace(c, kernel=k, ttgir=compiled.asm["ttgir"], ptxas=report, shared=shared,
                               replayed=_replayed(c, k, machine) if not unsimulated else None)


def internal_error(e: BaseException) -> str:
    """One line for an unexpected exception inside the Gluon back end: its type, message and where it was raised."""
    frame = traceback.extract_tb(e.__traceback__)[-1] if e.__traceback__ else None
    at = f" at {Path(frame.filename).name}:{frame.lineno}" if frame else ""
    first = (str(e).strip().splitlines() or [""])[0][:160]
    return f"the Gluon back end failed on this kernel (internal error {type(e).__name__}: {first}{at}; please report it)"


def _first_build(build: Callable[[int], tuple[GluonKernel, Any]], machine: Machine, halved: list[bool],
                 two_ctas: list[bool]) -> tuple[GluonKernel, Any]:
    """The kernel ``build`` makes (``_copy_warps``); where it fails with the registers halved for two CTAs per SM
    (``halved``: ptxas refused the limit, inductor_persistent_tma_mm), the one made with the whole file."""
    try:
        return _copy_warps(build, machine)
    except (CompileError, UnsupportedError):
        if not halved[0]:
            raise
        two_ctas[0] = False
        return _copy_warps(build, machine)


def _unserialised(build: Callable[[int], tuple[GluonKernel, Any]], machine: Machine, k: GluonKernel, compiled: Any,
                  chains: list[bool]) -> tuple[GluonKernel, Any, Any]:
    """``k`` and its ptxas report; where ptxas serialised its wgmmas (an accumulation's previous wgmma named by its
    result and read in place), the kernel made with it retired under its successor's token instead, if not."""
    report = ptxas_report(compiled, machine)
    if report is not None and report.serialized:
        chains[0] = True
        chained = _copy_warps(build, machine)
        better = ptxas_report(chained[1], machine)
        if better is not None and not better.serialized:
            return chained[0], chained[1], better
    return k, compiled, report


def _copy_warps(build: Callable[[int], tuple[GluonKernel, Any]], machine: Machine) -> tuple[GluonKernel, Any]:
    """The kernel ``build`` makes with a producer of ``WIDE_COPY_WARPS`` where it copies pointer tiles and ptxas
    compiles it cleanly beside the consumers (run 26c-d: +14-17 % on a 128 x 128 pointer GEMM, with its rings one
    deeper); else with ``COPY_WARPS`` (a 128 x 256 tile's consumers leave too few registers: ptxas refuses)."""
    try:
        k, compiled = build(WIDE_COPY_WARPS)
    except (CompileError, UnsupportedError):
        return build(COPY_WARPS)
    if not any(r.copied for r in k.plan.rings):
        return k, compiled
    report = ptxas_report(compiled, machine)
    if report is not None and not report.clean:
        return build(COPY_WARPS)
    return k, compiled


def _replayed(c: Candidate, k: GluonKernel, machine: Machine) -> float | None:
    """Cycles per iteration of the kernel's timed replay (``codegen.gluon.replay``) with the costs the solver
    used: it also prices what the schedule does not (each wait, in-order wgmma retirement, the barriers);
    calibrated, with the fitted wgmma issue and arrive costs."""
    issue = machine.written_cost("wgmma_issue") or 0.0
    g = graph_to_dict(c.graph)
    wait = pointer_load_wait(machine)
    costs = c.calibration.replay_costs(g, float(c.norm["scale"]), issue, wait) if c.calibration is not None \
        else model_costs(g, float(c.norm["scale"]), issue, load_wait=wait)
    try:
        cycles = replay(k.source, k.signature, costs).iteration()
    except (ProtocolError, Unsimulated):   # a nest whose outer loop runs 200,000 trips at the replay's sizes: no figure
        return None
    return cycles or None      # no trip of the scheduled loop ran in the replay's program (a causal kernel's first)


def _say_candidate(c: Candidate, say: Callable[[str], None]) -> None:
    graph = getattr(c, "graph", None)   # no dot (a norm, a sampler): no operand lifetime to say
    dots = graph is None or any(o.kind == "dot" for o in graph.ops)
    head = f"gluon: {c.subtiles} row sub-tile(s) under {c.reg_limit} registers" + (
        f", operands live until the dot {'retires' if c.hold else 'issues'}" if dots else "")
    if c.cycles == math.inf:
        summary = c.schedule.get("search_summary") or {}
        if summary.get("stopped") == "steps" and summary.get("all_refuted"):
            say(f"{head}: no joint schedule (every I from {c.schedule.lower_bound} to {summary.get('last_ii')} refuted "
                f"in {c.schedule.solve_seconds:.1f} s; the search tries at most {summary.get('max_steps')} values of "
                f"I, under its ceiling of {summary.get('ii_ceiling')})")
        elif summary.get("stopped") == "ceiling refuted":
            below = max((i for i in summary.get("ii_tried", ()) if i < summary.get("ii_ceiling", 0)), default=None)
            say(f"{head}: no joint schedule (I from {c.schedule.lower_bound} to {below} refuted, and its ceiling "
                f"I = {summary.get('ii_ceiling')}, where iterations no longer overlap; the I between not searched: "
                f"not a proof that none has one, {c.schedule.solve_seconds:.1f} s)")
        else:
            capped = summary.get("stopped") == "wall cap"
            inherited = [e["ii"][1] + 1 for e in c.schedule.get("search") or ()
                         if e.get("phase") == "inherited" and isinstance(e.get("ii"), list)]
            say(f"{head}: no joint schedule ({c.schedule.status}: {c.budget:.3g} deterministic s, I from "
                + (f"{c.schedule.lower_bound} searched; " if not inherited else
                   f"{max(inherited)} searched, below it refuted by the looser searches; ")
                + ("its wall-clock safety cap ended it, not reproducible)" if capped
                   else "--total-time gives the search more)"))
    elif c.kernel is None:
        say(f"{head}: I={c.schedule.ii} L={c.schedule.length} ({c.schedule.status}), not generated: {c.error}")
    else:
        tail = f"; {c.ptxas.problem()}" if c.ptxas is not None and not c.ptxas.clean else ""
        if c.kernel.maxnreg is None and c.ptxas is not None:
            tail += f"; {c.ptxas.registers} registers, {c.ctas_per_sm} CTA(s) per SM"
        if c.ctas_per_sm > 1:
            tail += f"; {c.sm_cycles:.0f} cycles an SM per CTA's iteration"
        say(f"{head}: I={c.schedule.ii} L={c.schedule.length} ({c.schedule.status}), {c.cycles:.0f} cycles per "
            f"iteration{tail}")


def rank(c: Candidate) -> tuple:
    """The order of made candidates, best first: fitted calibration, whole cycles an SM per CTA's iteration (a
    float's last digits do not split a tie, run 31g-h), fewer sub-tiles, more CTAs an SM (both bound by the SM's
    busiest unit, the one with more CTAs hides its loads' latency behind the others': sfast's group-norm statistics
    in one stage, three CTAs an SM, ran x1.10 of its pipelined kernel in two, run 139), the faster replay."""
    return (bool(c.unfitted), round(c.sm_cycles), c.subtiles, -(c.ctas_per_sm if c.kernel is not None else 1),
            c.replayed if c.replayed is not None else math.inf)


def _choose(res: GluonResult) -> GluonResult:
    """The clean kernel predicted fastest, per SM (``Candidate.sm_cycles``: its CTAs an SM share its units; fewest
    sub-tiles on a tie in whole cycles: a 128 x 128 GEMM's two
    64-row consumers, 512.00 predicted against one consumer's 512.01, ran 0.82x it, run 31g-h; then the faster
    replay: the schedules with and without LOOKAHEAD predict the same iteration, their kernels wait differently);
    failing that,
    among those whose wgmmas ptxas did not serialise, the one predicted fastest, then the one ptxas allocated
    best (fewest spills in the loop), with what ptxas said; failing that, why none was generated. (Run 9 on
    the H200: the FA backward with two consumers, 2592 cycles predicted and 198 spill instructions in its
    loop, ran 1.31-1.36x faster than the one-consumer kernel with 3595 and 131.) Calibrated, a kernel whose dots
    the calibration has no factor for ranks after those it has: its prediction is the model's there (run 5 measured
    the GEMM's two-consumer split, which the model and the replay predict faster, at 0.67x the one-consumer kernel)."""
    made = sorted((c for c in res.candidates if c.kernel is not None), key=rank)
    clean = [c for c in made if c.clean]
    worst = (1, 1 << 30, 1 << 30)
    def allocation(c: Candidate) -> tuple:
        cost = c.ptxas.cost if c.ptxas is not None else worst
        return (cost[0], c.cycles, cost)
    res.chosen = (clean or sorted(made, key=allocation) or [None])[0]
    if res.chosen is not None and res.chosen.kernel is not None:
        res.chosen = dataclasses.replace(res.chosen, kernel=dataclasses.replace(
            res.chosen.kernel, decisions=res.chosen.kernel.decisions + (_issue_order(res.chosen, clean),)
            + _calibrated(res.chosen, made) + occupancy_decision(res.chosen, clean)))
    why = _reasons(c for c in res.candidates if c.error or (c.ptxas is not None and not c.ptxas.clean))
    if res.chosen is None and not why:
        said = {c.schedule.status for c in res.candidates if c.schedule is not None}
        why = ["no joint schedule was found for any row split" + (
            " (a search timed out: --total-time gives it more)" if "timeout" in said else
            " (every search refuted)" if said == {"infeasible"} else "")]
    res.reason = "; ".join(why)
    return res


MAX_THREAD_REGS = 255          # registers ptxas gives a thread at most


def unfit_value(graph: LoopGraph) -> str | None:
    """Why no schedule holds the loop's values in registers where one of them, spread over every thread of the
    kernel, alone takes what ptxas may give a thread (LightLLM's int8-KV reduceV at BLOCK_N 512: a [512, 128] f16
    product, 256 registers a thread of 4 warps; Triton's compile of the loop spills it); else None."""
    warps = int(graph.get("num_warps") or 4)
    op = max(graph.ops, key=lambda o: o.regs, default=None)
    per_thread = -(-op.regs // (4 * 32 * warps)) if op is not None else 0     # 4-byte registers, ceiling
    if per_thread < MAX_THREAD_REGS:
        return None
    where = f"{Path(op.file).name}:{op.line}" if op.file and op.line else op.id
    alone = -(-TypeInfo("regs", tuple(op.shape), op.dtype).bytes // (4 * 32 * warps)) if op.shape else 0
    what = (f"a {list(op.shape)} {op.dtype} value" if alone >= per_thread else
            f"a {list(op.shape)} {op.dtype} value ({alone} registers a thread) and the tiles held with it "
            "(its offsets, masks, inputs)")
    return (f"the loop's values cannot be held in registers (at {where}, {op.id}: {what} "
            f"take{'s' if alone >= per_thread else ''} {per_thread} registers a thread over all {warps} warps' threads, "
            f"expected under the {MAX_THREAD_REGS} ptxas gives a thread; Triton's compile of the loop spills it: "
            "a smaller tile fits)")


def occupancy_decision(chosen: Candidate, clean: list[Candidate]) -> tuple[str, ...]:
    """For a kernel of one partition: its CTAs per SM by ptxas's registers (not in the model: run 26b measured
    rms_norm_bwd's compute in one stage, 7 CTAs per SM, 2 % slower than over two stages with 6)."""
    k = chosen.kernel
    if k is None or k.maxnreg is not None or chosen.ptxas is None or k.plan is None:
        return ()
    return (f"occupancy: ptxas {chosen.ptxas.registers} registers per thread, {chosen.ctas_per_sm} CTA(s) of "
            f"{32 * k.num_warps} threads per SM ({k.plan.consumers[0].stages} stages)",)


def _reasons(failed: Iterable[Candidate]) -> list[str]:
    """Why candidates were not kept, each reason once with the candidates (sub-tiles, register limits) it stopped:
    a construct the back end refuses stops every candidate alike."""
    by: dict[str, dict[int, list[int]]] = {}
    for c in failed:
        by.setdefault(c.error or c.ptxas.problem(), {}).setdefault(c.subtiles, []).append(c.reg_limit)
    return [f"{why} [" + ", ".join(f"{n} sub-tile(s) under {'/'.join(str(r) for r in dict.fromkeys(limits))} registers"
                                   for n, limits in subs.items()) + "]" for why, subs in by.items()]


def _calibrated(chosen: Candidate, made: list[Candidate]) -> tuple[str, ...]:
    """--calibrated: the decision line saying which costs the schedule was solved with."""
    cal = chosen.calibration
    if cal is None:
        return ()
    skipped = [f"{c.subtiles} sub-tile(s) ({', '.join(c.unfitted)})" for c in made if c.unfitted]
    return (f"costs: calibrated from the generated kernels' profiles ({', '.join(e['label'] for e in cal.fitted_from)}): "
            "each op's cycles times its class's measured factor, each dot's tensor-core time times its class's "
            "fitted factor, the measured wgmma issue and arrive" + (
                f"; ranked after the others, with dots the calibration has no factor for: {'; '.join(skipped)}"
                if skipped else ""),)


def _issue_order(chosen: Candidate, clean: list[Candidate]) -> str:
    """The decision line for the issue order: LOOKAHEAD or not, and what the replays of the candidates said."""
    def rep(c: Candidate) -> str:
        return f"replayed {c.replayed:.0f}" if c.replayed is not None else "not replayed"
    def what(c: Candidate) -> str:
        subs = ", ".join("all rows" if x is None else str(x) for x in c.lookahead)
        return f"LOOKAHEAD on sub-tile(s) {subs}" if c.lookahead else "no LOOKAHEAD"
    why = (" (a group's dependent dots an iteration apart, its wait for the first leaving the second's previous "
           "instance in flight)") if chosen.lookahead else ""
    costs = "the calibrated costs" if chosen.calibration is not None else "the model's costs"
    timed = (f"{rep(chosen)} cycles per iteration with {costs}" if chosen.replayed is not None else
             "not replayed (the replay ran no trip of its steady loop, as in a loop of fewer trips than stages, "
             "or could not run the kernel)")
    head = f"issue order: {what(chosen)}{why}, {timed}"
    others = [c for c in clean if c.subtiles == chosen.subtiles and c.lookahead != chosen.lookahead]
    if not others:
        return head + ("" if chosen.lookahead else " (LOOKAHEAD not searched: --lookahead)")
    return head + "; against " + "; ".join(f"{what(c)}: {rep(c)} (schedule {c.cycles:.0f})" for c in others)
