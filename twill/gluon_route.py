"""The Gluon route of ``twill optimize``: the schedule twill writes as a Gluon kernel itself.

Triton's passes do not apply a stage to a dot before the last, nor registers per partition, nor
asynchronous wgmma across partitions; the Gluon back end writes all of that, so this route solves
without Triton's realisability constraints. Its search dimension is the row split: for each number
of row sub-tiles the rows allow (``twill.ir.dims``; a Hopper sub-tile keeps at least one 64-row
warpgroup), the graph is split, costed, normalised and solved jointly, with the register limit of
the partition the generated kernel will give each compute group; the best predicted iteration
(cycles) wins, the fewest sub-tiles on a tie. Its kernel is then generated and compiled offline.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

from codegen.gluon.generate import GluonKernel, compile_offline, generate
from codegen.gluon.plan import REG_FILE, REG_OVERHEAD
from twill.errors import TwillError
from twill.graph.model import LoopGraph
from twill.graph.split import split_graph
from twill.ir.dims import row_split
from twill.ir.frontend import KernelIR
from twill.ir.function import read_function
from twill.machine.cost import annotate_costs
from twill.machine.model import Machine
from twill.schedule.model import Schedule
from twill.schedule.verify import verify
from twill.solve.modulo import modulo_schedule
from twill.solve.normalize import normalize_graph
from twill.solve.problem import ModuloProblem, SolveOptions
from twill.solve.search import JointOptions, joint_search

ROWS_PER_WARPGROUP = 64          # a Hopper wgmma is m64nNk16 per warpgroup
PRODUCER_REGS = 24


@dataclass(frozen=True)
class Candidate:
    """One point of the search: the row split, its graph and schedule, and the predicted iteration."""

    subtiles: int
    graph: LoopGraph                 # normalised, split
    costed: LoopGraph                # in cycles, split
    schedule: Schedule
    norm: dict[str, Any]

    @property
    def cycles(self) -> float:
        return self.schedule.ii * float(self.norm["scale"]) if self.schedule.status in ("optimal", "feasible") \
            else math.inf

    def summary(self) -> dict[str, Any]:
        return {"subtiles": self.subtiles, "ii": self.schedule.ii, "length": self.schedule.length,
                "status": self.schedule.status, "iteration_cycles": round(self.cycles, 1)
                if self.cycles < math.inf else None, "warp_groups": self.schedule.get("warp_groups")}


@dataclass
class GluonResult:
    """The Gluon route's outcome: the chosen candidate and its kernel, or why there is none."""

    candidates: list[Candidate] = field(default_factory=list)
    chosen: Candidate | None = None
    kernel: GluonKernel | None = None
    ttgir: str | None = None
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"candidates": [c.summary() for c in self.candidates],
                "chosen": self.chosen.subtiles if self.chosen else None, "reason": self.reason,
                "kernel": self.kernel.to_dict() if self.kernel else None}


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


def consumer_reg_limit(machine: Machine, consumer_warps: list[int]) -> int:
    """Registers per thread a compute group of the generated kernel may hold in tiles: its share of the
    register file once the producer has its minimum, less what indices and addresses need."""
    groups = sum(max(1, math.ceil(w / 4)) for w in consumer_warps)
    share = min(256, ((REG_FILE // 128 - PRODUCER_REGS) // groups) // 8 * 8)
    return share - REG_OVERHEAD


def solve_gluon(graph: LoopGraph, kir: KernelIR, machine: Machine, options: Any,
                say: Callable[[str], None]) -> GluonResult:
    """Search the row split, generate the best schedule's kernel and compile it offline."""
    res = GluonResult()
    if machine.sm != 90:
        res.reason = f"the Gluon back end writes Hopper kernels; {machine.name} is sm_{machine.sm}"
        return res
    fn = read_function(kir.text, graph.name)
    loops = fn.module.loops()
    loop = loops[graph.get("loop_index") or 0]
    rs = row_split(fn, loop)
    warps = int(graph.get("num_warps") or 4)
    choices = split_choices(rs.rows if rs.possible else 0, warps, getattr(options, "row_split", None))
    if not rs.possible and choices != [1]:
        say(f"gluon: the rows cannot be split ({rs.why_not()}); one compute group")
        choices = [1]
    solve_opts = SolveOptions(time_limit=options.time_limit,
                              **({"threads": options.threads} if getattr(options, "threads", None) else {}))
    for nc in choices:
        try:
            res.candidates.append(_candidate(graph, rs, loop, nc, machine, options, solve_opts))
        except TwillError as e:
            say(f"gluon: {nc} sub-tile(s): {e}")
    for c in res.candidates:
        say(f"gluon: {c.subtiles} row sub-tile(s): I={c.schedule.ii} L={c.schedule.length} ({c.schedule.status}), "
            f"{c.cycles:.0f} cycles per iteration")
    return _emit(res, kir, machine, options, say)


def _candidate(graph: LoopGraph, rs: Any, loop: Any, nc: int, machine: Machine, options: Any,
               solve_opts: SolveOptions) -> Candidate:
    g = split_graph(graph, rs, loop.body.ops if loop.body else [], nc)
    costed = annotate_costs(g, machine)
    scaled, norm = normalize_graph(costed, options.normalize_bound)
    modulo = modulo_schedule(ModuloProblem.from_graph(scaled, machine.units), options.backend, solve_opts)
    warps = int(graph.get("num_warps") or 4)
    limit = consumer_reg_limit(machine, [warps // nc] * nc)
    jopts = JointOptions(time_limit=options.time_limit, threads=solve_opts.threads, reg_limit=limit,
                         modulo_backend=options.backend)
    joint = joint_search(scaled, machine, jopts, seed=modulo.with_extra(normalization=norm), backend=options.joint_backend)
    if joint.status in ("optimal", "feasible"):
        bad = verify(scaled, machine, joint)
        if bad:
            raise TwillError("schedule failed the independent checker", where=graph.name,
                             found="; ".join(str(v) for v in bad[:3]))
    return Candidate(nc, scaled, costed, joint.with_extra(normalization=norm, row_split=nc), norm)


def _emit(res: GluonResult, kir: KernelIR, machine: Machine, options: Any, say: Callable[[str], None]) -> GluonResult:
    """Generate and compile the best candidate; the next best when one does not fit or compile."""
    ranked = sorted((c for c in res.candidates if c.cycles < math.inf), key=lambda c: (c.cycles, c.subtiles))
    if not ranked:
        res.reason = res.reason or "no joint schedule was found for any row split"
        return res
    reasons = []
    for c in ranked:
        try:
            k = generate(kir.text, c.graph, c.schedule, machine, kir.spec, tc_order=getattr(options, "tc_order", True))
            compiled = compile_offline(k, machine)
        except TwillError as e:
            reasons.append(f"{c.subtiles} sub-tile(s): {e}")
            say(f"gluon: {c.subtiles} sub-tile(s) not generated: {e}")
            continue
        res.chosen, res.kernel, res.ttgir = c, k, compiled.asm["ttgir"]
        res.reason = "; ".join(reasons)
        return res
    res.reason = "; ".join(reasons)
    return res
