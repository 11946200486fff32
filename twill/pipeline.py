"""The optimize pipeline, top to bottom: kernel -> graph -> costs -> normalised costs -> modulo
schedule -> joint schedule -> checked schedule -> annotated IR, schedule JSON and HTML.

``optimize`` is a list of named steps; each is timed (``Steps``, the schedule's ``phases``) and,
with a dump directory, writes what it produced (``--time-passes``, ``--dump-dir``).
"""
from __future__ import annotations

import contextlib
import dataclasses
import json
import re
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterator

from codegen.annotate import annotate_ttgir
from codegen.compile import check_annotation
from codegen.gluon.generate import NO_WGMMA_SPILLS
from codegen.hints import hints
from codegen.placement import ahead, realisability_constraints
from codegen.warps import annotate as annotate_warps
from profiling.profile import load_profile_for
from twill.errors import InputError, MachineError, TwillError
from twill.graph.extract import graph_of
from twill.graph.io import graph_from_dict, graph_to_dict
from twill.gluon_route import GluonResult, choose_warps, fewer_warps, nest_carries_tiles, solve_gluon, whole_cta
from twill.graph.model import LoopGraph
from twill.ir.flatten import Flattened, flatten_nests
from twill.ir.frontend import KernelIR, read_kernel, widened
from twill.ir.layouts import converted_bytes
from twill.ir.triton_hooks import triton_version
from twill.ir.ttgir import loops as ttgir_loops
from twill.machine.calibrate import load_calibration
from twill.machine.cost import annotate_costs
from twill.machine.model import Machine, machine_sha
from twill.schedule.model import Schedule
from twill.schedule.verify import verify
from twill.solve.modulo import modulo_schedule
from twill.solve.normalize import normalize_graph
from twill.solve.problem import ModuloProblem, SolveOptions
from twill.solve.search import JointOptions, joint_search
from twill.util import WRITING, atomic_write, sha256
from twill.view import render_html

Say = Callable[[str], None]


@dataclass(frozen=True)
class OptimizeOptions:
    """What ``twill optimize`` was asked to do (the command's flags, solver-neutral)."""

    swp_only: bool = False
    backend: str = "cpsat"               # modulo ILP backend: cpsat | cpsat-slots | scip
    joint_backend: str = "cpsat"         # joint problem backend: cpsat | z3
    time_limit: float = 60.0             # deterministic seconds per solver call (twill.solve.budget)
    total_time: float | None = None      # deterministic seconds for the whole joint search (None: ten time_limits)
    normalize_bound: int = 300           # U of the paper's section 5.2
    profile: str | None = None           # measured profile JSON (twill profile)
    calibrated: bool = False             # the fitted constants of twill/machine/calibration/<arch>.toml
    kernel: str | None = None
    loop: int | str | None = None        # an index, or ":LINE" (twill.graph.loops)
    args: tuple[tuple[str, str], ...] = ()
    consts: tuple[tuple[str, str], ...] = ()
    num_warps: int | None = None
    spec_warps: int | None = None        # the Gluon route solving the kernel at fewer warps than these (choose_warps)
    warp_groups: int | None = None
    reg_limit: int | None = None
    no_cross_warp: bool = False
    annotate: bool = True                # write the annotated TTGIR when the input has TTGIR
    threads: int | None = None           # solver workers per call (None: SolveOptions' default; CP-SAT runs one)
    realisable: bool = True              # honour the installed Triton's pipeliner constraints (codegen)
    dump_dir: str | None = None          # write each step's output there
    emit: str = "auto"                   # auto (Gluon and Triton on Hopper, Triton elsewhere) | gluon | triton
    row_split: int | None = None         # row sub-tiles for the Gluon route (None: searched)
    tc_order: bool = False               # keep the schedule's tensor-core order between consumers (turn barriers)
    tree_reductions: bool = False        # Gluon route: row reductions as trees over each thread's registers
    reducer: bool = True                 # Gluon route: split partials added atomically go through a reducer partition
    gluon_lookahead: bool = False        # Gluon route: also solve under LOOKAHEAD; the faster replay wins
    sequential_groups: bool = False      # Gluon route: GROUP SEQUENCE, RETIREMENT, the written kernels' costs (experimental)
    async_copies: bool = False           # Gluon route: the producer's ring copies hold it for their issue only (run 179)
    issued_loads: bool = False           # Gluon route: a pointer load its readers issue holds them for its issue only
    extra_stages: int = 0                # the joint search's L up to this many stages past the modulo schedule's
    persistent: str = "auto"             # Gluon route: one CTA per SM over the tiles: auto | on | off
    async_tiles: str = "auto"            # Gluon route: a wgmma's register-read pointer tiles by cp.async: auto | on | off
    own_tiles: str = "auto"              # Gluon route: the dots' tiles loaded by the consumer, no producer: auto | on | off
    prefetch: str = "auto"               # ... and copied that many iterations ahead: auto | 0-4 (``generate``)
    short_loops: str = "auto"            # Gluon route: the one-partition kernel beside a producer's, for short loops: auto | off | N
    one_stage: str = "auto"              # Gluon route: a one-partition kernel also solved in one stage: auto (timed at launch) | on | off


@dataclass(frozen=True)
class OptimizeResult:
    graph: LoopGraph                     # costed graph, real cycles
    scheduled_graph: LoopGraph           # normalised graph the schedule refers to
    schedule: Schedule
    pre_ttgir: str | None
    annotated_ttgir: str | None
    kernel_source_sha: str
    ttgir_sha: str
    machine_sha: str
    profile_sha: str | None
    triton_version: str
    kernel_name: str
    config: dict[str, Any] = field(default_factory=dict)
    phases: dict[str, float] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    gluon: GluonResult | None = None
    unannotated: str | None = None       # why annotated.ttgir is not written (None: it is)


class Steps:
    """Times each named step of the pipeline and, with a dump directory, writes what each produced."""

    def __init__(self, dump_dir: str | None = None) -> None:
        self.phases: dict[str, float] = {}
        self.dumped = 0
        self.dump_dir = Path(dump_dir) if dump_dir else None
        if self.dump_dir is not None:
            try:
                self.dump_dir.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise InputError("cannot create the dump directory", where=str(dump_dir), found=e.strerror) from None

    @contextlib.contextmanager
    def __call__(self, name: str) -> Iterator[None]:
        t0 = time.perf_counter()
        try:
            yield
        finally:
            self.phases[name] = self.phases.get(name, 0.0) + time.perf_counter() - t0

    def dump(self, name: str, data: Any) -> None:
        """``data`` (JSON-able, a LoopGraph, a Schedule or text) as ``NN-name.*`` in the dump directory."""
        if self.dump_dir is None:
            return
        n, self.dumped = self.dumped, self.dumped + 1
        if isinstance(data, LoopGraph):
            data = graph_to_dict(data)
        elif isinstance(data, Schedule):
            data = data.to_dict()
        ext, text = ("ttgir", data) if isinstance(data, str) else ("json", json.dumps(data, indent=1) + "\n")
        atomic_write(self.dump_dir / f"{n:02d}-{name}.{ext}", text)


def optimize(path: str, machine: Machine, opts: OptimizeOptions = OptimizeOptions(), progress: Say | None = None,
             extracted: tuple[LoopGraph, KernelIR | None, str] | None = None) -> OptimizeResult:
    """Run the whole pipeline on one kernel for ``machine`` (``extracted``: ``extract``'s result when
    the caller has it already, so the kernel is compiled once).

    Examples
    --------
    >>> r = optimize("kernels/gemm.py", load_machine("h100"), OptimizeOptions(swp_only=True))  # doctest: +SKIP
    >>> r.schedule.ii, r.schedule.status                                                        # doctest: +SKIP
    """
    say = progress or (lambda _msg: None)
    step = Steps(opts.dump_dir)
    with step("extract"):      # the loop's dependence graph, from Triton's own pre-pipeline TTGIR
        graph, kir, source_sha = extracted or extract(path, machine, opts)
    opts = solved_as(graph, opts, say)
    graph = _with_trips(kir, graph)     # a bound on the num_stages worth suggesting
    step.dump("graph", graph)
    for note in graph.get("notes") or ():   # what loading skipped or chose (a decorator, a captured config)
        say(f"note: {note}")
    say(f"graph: {len(graph.ops)} ops, {len(graph.deps)} edges" + (f"; {graph.get('loop_choice')}"
                                                                    if (graph.get("loops") or 1) > 1 else ""))
    with step("cost"):         # the machine model, or measured latencies where a profile has them
        costed = cost(graph, machine, opts, say)
    step.dump("costed", costed)
    with step("normalize"):    # small integer costs with the same ratios: the exact solvers stay tractable (5.2)
        scaled, norm = normalize_graph(costed, opts.normalize_bound)
    step.dump("normalized", {"graph": graph_to_dict(scaled), "normalization": norm})
    say(f"normalised: 1 unit = {norm['scale']:.1f} cycles, worst ratio error {norm['worst_ratio_error']:.3f}")
    with step("modulo"):       # the smallest II the units and recurrences allow, proved; then realisable by Triton
        modulo, stage_order, realisability = solve_modulo(scaled, kir, machine, opts, say)
    step.dump("modulo", modulo)
    with step("joint"):        # software pipeline and warp assignment together (Algorithm 1)
        schedule = solve_joint(scaled, machine, opts, modulo, norm, stage_order, say)
    if realisability:
        schedule = schedule.with_extra(realisability=realisability)
    step.dump("joint", schedule)
    with step("verify"):       # every schedule goes through the independent checker
        check(scaled, machine, schedule, graph.name)
    with step("emit"):         # the annotated TTGIR that Triton compiles, and the source hints
        schedule, annotated, notes = emit(kir, scaled, schedule, norm, machine, opts)
    if annotated:
        step.dump("annotated", annotated)
    gluon = None
    refused = (schedule.get("joint") or {}).get("refused")
    if _wants_gluon(kir, machine, opts) and refused and not whole_cta(costed, machine):
        # the Gluon kernel is built from a joint schedule (of one partition where the kernel has more warps than
        # a CTA may specialise: the route solves that problem itself)
        notes = notes + [f"gluon kernel: none (the joint problem refuses this kernel: {refused})"]
    elif _wants_gluon(kir, machine, opts):
        if opts.profile:
            say("note: the Gluon route costs its row-split graphs with the machine model (or its Gluon calibration, "
                "--calibrated), not with the profile (twill/gluon_route.py)")
        with step("gluon"):    # twill's own kernel: the row split searched, the best schedule generated in Gluon
            gluon = _solve_gluon_warps(path, costed, kir, machine, opts, say)
        notes = notes + _gluon_notes(gluon)
    unannotated = None if annotated else not_annotated(kir, schedule, opts)
    schedule = record(schedule, step.phases, norm, machine, costed, graph, source_sha)
    if unannotated:
        schedule = schedule.with_extra(annotated_ttgir={"written": False, "why": unannotated})
    return OptimizeResult(
        graph=costed.with_meta(solved_with=solve_flags(opts)), scheduled_graph=scaled, schedule=schedule,
        pre_ttgir=kir.text if kir else None, annotated_ttgir=annotated, unannotated=unannotated,
        kernel_source_sha=source_sha,
        ttgir_sha=sha256(kir.text) if kir else sha256(json.dumps(graph_to_dict(graph), sort_keys=True)),
        machine_sha=machine_sha(machine), profile_sha=sha256(Path(opts.profile).read_bytes()) if opts.profile else None,
        triton_version=triton_version(), kernel_name=str(graph.get("kernel", graph.name)),
        config={"num_warps": graph.get("num_warps")}, phases=dict(step.phases), notes=tuple(notes), gluon=gluon)


def _solve_gluon_warps(path: str, costed: LoopGraph, kir: KernelIR, machine: Machine, opts: OptimizeOptions,
                       say: Say) -> GluonResult:
    """The Gluon route at the kernel's own warps, and where its kernel is one consumer of them all beside a producer
    of as many, one CTA an SM, converting a loaded tile (``gluon_route.fewer_warps``), again on the kernel compiled with half as many (its
    layouts are Triton's for those warps); the one predicted faster an SM (``gluon_route.choose_warps``)."""
    res = _solve_gluon_wide(path, costed, kir, machine, opts, say)
    warps = int(costed.get("num_warps") or 4)
    res = dataclasses.replace(res, warps=warps)
    n = fewer_warps(res, warps, opts)
    if n is None:
        return res
    say(f"gluon: the kernel's {warps} warps are one consumer converting a loaded tile beside a producer of as many, "
        "one CTA an SM; "
        f"solved again at {n} warps")
    fewer_opts = dataclasses.replace(opts, num_warps=n, spec_warps=warps)
    try:
        fkir = read_kernel(path, machine.target, opts.kernel, dict(opts.args), dict(opts.consts), n)
        g = _graph_with_trips(fkir, machine, opts.loop, path)
        fewer = _solve_gluon_wide(path, cost(g, machine, fewer_opts, lambda _m: None), fkir, machine, fewer_opts,
                                  lambda m: say(m.replace("gluon: ", f"gluon ({n} warps): ", 1)))
    except TwillError as e:          # the kernel does not compile at n warps, say: its own warps' kernel
        say(f"gluon: not at {n} warps ({e}); at {warps}")
        return res
    return choose_warps(res, warps, dataclasses.replace(fewer, warps=n), n, say)


def _solve_gluon_wide(path: str, costed: LoopGraph, kir: KernelIR, machine: Machine, opts: OptimizeOptions,
                      say: Say) -> GluonResult:
    """The Gluon route on the kernel as Triton lays it out with its integer arguments 16-divisible where that
    widens its loads (``frontend.widened``: a launch passing them so gets those layouts from Triton, and the
    kernel stays correct at one that does not); on the kernel as specialised where it does not, or where the wide
    one has no kernel."""
    try:          # the wide compile failing (or its loop another) leaves the kernel as specialised, said so
        wide = widened(kir, machine.target)
        g = graph_of(wide, machine.target, opts.loop, where=path) if wide is not None else None
        more = (_converted(g, wide.text) - _converted(costed, kir.text)
                if wide is not None and g is not None and len(g.ops) == len(costed.ops) else 0)
        if wide is not None and g is not None and len(g.ops) != len(costed.ops):
            say(f"gluon: not written as if {', '.join(wide.spec.assumed)} were 16-divisible (the loop's graph has "
                f"{len(g.ops)} nodes so, {len(costed.ops)} as specialised); as specialised")
        elif wide is not None and more > 0:
            say(f"gluon: not written as if {', '.join(wide.spec.assumed)} were 16-divisible (its loop's layout "
                f"conversions move {more} more bytes an iteration between threads so); as specialised")
        elif wide is not None and g is not None:
            g = _with_trips(wide, g)
            say(f"gluon: written with {', '.join(wide.spec.assumed)} as if 16-divisible (wider loads and stores; "
                "a launch where they are not loads and stores narrower)")
            res = _solve_nest(path, cost(g, machine, opts, lambda _m: None), wide, machine, opts, say)
            if res.kernel is not None:
                return res
            say(f"gluon: none so ({res.reason}); as specialised")
    except TwillError as e:
        say(f"gluon: not written as if its integers were 16-divisible ({e}); as specialised")
    return _solve_nest(path, costed, kir, machine, opts, say)


def _converted(g: LoopGraph, text: str) -> int:
    """The bytes the layout conversions of ``g``'s loop move between threads an iteration, under the layouts of
    ``text`` (``twill.ir.layouts.moves_data``): Triton's layouts for the integers assumed 16-divisible can make a conversion
    that was a renaming of registers a transpose (SGLang's int4 decode: its [64, 4] scales loaded 4 a thread
    relaid the dequantised [64, 128] V tile, 16 KB through shared memory an iteration, 255 registers a thread
    against 128)."""
    return sum(converted_bytes(op.ir, text) for op in g.ops)


def _with_trips(kir: KernelIR | None, g: LoopGraph) -> LoopGraph:
    """``g`` with the loop's trip count where ``kir``'s bounds give it."""
    trips = trip_count(kir, g)
    return g.with_meta(trip_count=trips) if trips is not None else g


def _graph_with_trips(kir: KernelIR, machine: Machine, loop: int | str | None, path: str) -> LoopGraph:
    """The dependence graph of ``kir``'s ``loop``, with its trip count where the bounds give it."""
    return _with_trips(kir, graph_of(kir, machine.target, loop, where=path))


NEST_REFUSALS = ("keeps a tile loop carrying scalars only", "keeps a tile loop with nothing after it")


def _solve_nest(path: str, costed: LoopGraph, kir: KernelIR, machine: Machine, opts: OptimizeOptions,
                say: Say) -> GluonResult:
    """The Gluon route; on the kernel with its perfect nests flattened into one loop (``twill.ir.flatten``:
    torchvision's RoIAlign, a convolution's loops over the filter and the channel blocks), the flattened loop
    scheduled, first where the nest carries a tile, else where the route refuses the nest (``NEST_REFUSALS``); the
    nest's refusal stands where none flattens or the flattened kernel has no kernel either."""
    # flattened first: the loop measured (RoIAlign, run 202) and simulated in seconds (the conv's nest kept ran its
    # filter loops around each simulated trip, > 15 min)
    flat = flatten_nests(kir.nested or kir.text) if opts.loop is None else None
    first = _flattened(path, flat, kir, machine, opts, say) if flat and nest_carries_tiles(kir, costed) else None
    if first is not None and first.kernel is not None:
        return first
    res = solve_gluon(costed, kir, machine, opts, say)
    if res.kernel is not None or flat is None:
        return res
    if first is None:
        if not any(r in res.reason for r in NEST_REFUSALS):
            return res
        first = _flattened(path, flat, kir, machine, opts, say)
        if first.kernel is not None:
            return first
    res.reason += f" (flattened into one loop: {first.reason})"
    return res


def _flattened(path: str, flat: Flattened, kir: KernelIR, machine: Machine, opts: OptimizeOptions,
               say: Say) -> GluonResult:
    """The Gluon route on ``kir`` with its perfect nests flattened (``flat``); the kernel's decisions say so."""
    say(f"gluon: {'; '.join(flat.said)}")
    fkir = dataclasses.replace(kir, text=flat.text, nested=None)
    try:
        g = _graph_with_trips(fkir, machine, None, path)
        out = solve_gluon(cost(g, machine, opts, lambda _m: None), fkir, machine, opts, say)
    except TwillError as e:
        return GluonResult(reason=str(e))
    if out.kernel is None:
        return out
    assert out.chosen is not None
    k = out.chosen.kernel
    out.chosen = dataclasses.replace(out.chosen, kernel=dataclasses.replace(
        k, decisions=tuple(f"nest: {s}; the outer body's ops computed again each iteration" for s in flat.said)
        + k.decisions))
    return out


def _wants_gluon(kir: KernelIR | None, machine: Machine, opts: OptimizeOptions) -> bool:
    if opts.emit == "triton" or opts.swp_only or kir is None or kir.spec is None:
        return False
    return opts.emit == "gluon" or machine.sm == 90


def _gluon_notes(g: GluonResult) -> list[str]:
    if g.kernel is None:
        return [f"gluon kernel: none ({g.reason})"]
    c = g.chosen
    assert c is not None
    head = (f"gluon kernel: {c.subtiles} row sub-tile(s), I={c.schedule.ii} L={c.schedule.length} "
            f"({c.schedule.status}), {c.cycles:.0f} cycles per iteration predicted"
            + (f" (its consumers' warps take {c.issue_floor:.0f} to issue an iteration's ops, a model estimate "
               f"outside the proof; the proved II {c.schedule.ii * float(c.norm['scale']):.0f})"
               if c.issue_floor > c.schedule.ii * float(c.norm["scale"]) else ""))
    proved = (f"  {c.schedule.status} means: for this row split, under {c.reg_limit} registers per thread with a "
              f"dot's operands live until it {'retires' if c.hold else 'issues'}, no register value "
              "crossing compute groups" + (f", LOOKAHEAD on sub-tile(s) {', '.join(map(str, c.lookahead))}"
                                           if c.lookahead else "") +
              (", as one group of all the kernel's warps" if (c.schedule.get("joint") or {}).get("one_partition")
               else "") + _together(c.schedule) + (", among one-stage schedules" if c.schedule.get("one_stage") else "") +
              f"; the kernel is {_which(c)} of the candidates below, not a proof over all kernels")
    tried = ", ".join(f"{x.subtiles}: {x.cycles:.0f}" if x.cycles < float("inf") else
                      f"{x.subtiles}: none ({unsolved_status(x)})" for x in g.candidates)
    return [head, proved, f"  candidates tried (sub-tiles: cycles per iteration): {tried}"] + \
        ([f"  hint: {g.hint}"] if g.hint else []) + [f"  {d}" for d in g.kernel.decisions]


def unsolved_status(x: Any) -> str:
    """Why a candidate has no iteration: its search's status (timed out, refuted) and operand model."""
    status = getattr(x.schedule, "status", None) or "not solved"
    return f"{status}, operands live until the dot {'retires' if x.hold else 'issues'}"


def _together(s: Any) -> str:
    """The proof's scope where the code after the loop reads ops' results together (``JointOptions.together``)."""
    pairs = (s.get("joint") or {}).get("together") or []
    if not pairs:
        return ""
    which = (", ".join(f"{a} and {b}" for a, b in pairs) + (" each" if len(pairs) > 1 else "") if len(pairs) <= 2
             else f"{len(pairs)} pairs of ops (gluon.json: joint.together) each")
    return f", with {which} in the same compute group (the code after the loop reads their results together)"


def _which(c: Any) -> str:
    """How the chosen candidate was chosen: clean and predicted fastest, or (none clean) the best ptxas allocated
    (HSTU's ragged attention: every candidate spilled in its loop, and the note called the chosen one clean)."""
    if c.ptxas is None or (c.clean and not (c.ptxas.spill_stores or c.ptxas.spill_loads)):
        return "the best ptxas-clean one"
    if c.clean:     # spilled bytes the route does not count (session 93's sweep: the note had said clean, not them)
        return (f"the best ptxas-clean one (its {c.ptxas.spill_stores} bytes a thread spilled not counted: none in a "
                f"wgmma loop, or under {NO_WGMMA_SPILLS} in a loop without wgmma)")
    return f"the one ptxas allocated best (none was ptxas-clean; this one: {c.ptxas.problem()})"


def extract(path: str, machine: Machine, opts: OptimizeOptions) -> tuple[LoopGraph, KernelIR | None, str]:
    """Graph of the loop in ``path`` (kernel .py, .ttgir or graph .json), the kernel IR when the input
    has TTGIR, and the hash of the input file."""
    p = Path(path)
    if not p.is_file():
        raise InputError("no such file", where=path, expected="a kernel .py, a .ttgir or a graph .json")
    if p.suffix == ".json":
        text = p.read_text()
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise InputError("malformed graph JSON", where=f"{path}:{e.lineno}", expected="JSON",
                             found=e.msg) from None
        return graph_from_dict(data, where=path), None, sha256(text)
    kir = read_kernel(path, machine.target, opts.kernel, dict(opts.args), dict(opts.consts), opts.num_warps)
    return graph_of(kir, machine.target, opts.loop, where=path), kir, kir.source_sha256


SOLVE_FLAGS = ("warp_groups", "reg_limit", "no_cross_warp")


def solve_flags(opts: OptimizeOptions) -> dict[str, Any]:
    """The options that shape the joint problem, recorded in the written graph.json: a graph fed back
    to ``twill optimize`` is solved as it was, not with the defaults (a sub-tiled loop solved with two
    compute groups would get one, and the joint search would climb hundreds of I values)."""
    return {k: getattr(opts, k) for k in SOLVE_FLAGS if getattr(opts, k) not in (None, False)}


def solved_as(graph: LoopGraph, opts: OptimizeOptions, say: Say) -> OptimizeOptions:
    """``opts`` with the joint-problem options a graph file was solved with (``solve_flags``) where the
    command line leaves them unset; one progress line says which were taken."""
    flags = graph.get("solved_with")
    if not isinstance(flags, dict):
        return opts
    taken = {k: v for k, v in flags.items() if k in SOLVE_FLAGS and getattr(opts, k) in (None, False)}
    if taken:
        say("from the graph file: " + ", ".join(f"--{k.replace('_', '-')}" + ("" if v is True else f" {v}")
                                                for k, v in taken.items()) + " (as it was solved)")
    return replace(opts, **taken)


def trip_count(kir: KernelIR | None, graph: LoopGraph) -> int | None:
    """The loop's trip count when its bounds and step are constants in the TTGIR; None when they
    depend on the launch (the usual case: ``range(0, N, BLOCK)``)."""
    index = graph.get("loop_index")
    if kir is None or not isinstance(index, int):
        return None
    lines = kir.text.splitlines()
    fors = ttgir_loops(lines)
    m = re.search(r"scf\.for\s+%[\w.]+\s*=\s*(%[\w.]+)\s+to\s+(%[\w.]+)\s+step\s+(%[\w.]+)",
                  lines[fors[index].first]) if index < len(fors) else None
    consts = dict(re.findall(r"(%[\w.]+) = arith\.constant (-?\d+) : i(?:32|64)\b", kir.text))
    if m is None or not all(x in consts for x in m.groups()):
        return None
    lo, hi, st = (int(consts[x]) for x in m.groups())
    return max(0, -(-(hi - lo) // st)) if st > 0 else None


def not_annotated(kir: KernelIR | None, schedule: Schedule, opts: OptimizeOptions) -> str:
    """Why no annotated TTGIR is written, in one line."""
    if kir is None:
        return ("the input is a graph without TTGIR, so the installed Triton's pipeliner constraints were not "
                "applied either (give the kernel .py or a .ttgir for both)")
    if not opts.annotate:
        return "annotation was not asked for"
    return f"no schedule to annotate (status {schedule.status})"


def cost(graph: LoopGraph, machine: Machine, opts: OptimizeOptions, say: Say) -> LoopGraph:
    """Cycles and reservation tables per node: measured ones from ``opts.profile``, the calibrated
    model's with ``opts.calibrated`` (the calibration file recorded in the graph's meta), the model's
    otherwise."""
    profile = load_profile_for(opts.profile, graph, machine.name) if opts.profile else None
    cal = load_calibration(machine) if opts.calibrated else None
    costed = annotate_costs(graph, machine, profile, cal.scale if cal else None)
    src = cost_sources(costed)
    if profile is not None:
        measured, model = src.get("profile", []), [n for k, v in src.items() if k != "profile" for n in v]
        say(f"costs: {len(measured)} measured (profile {opts.profile}), {len(model)} from the machine model"
            + (f": {', '.join(model)}" if model else ""))
    if cal is not None:
        fitted = src.get("calibrated", [])
        say(f"costs: {len(fitted)} calibrated ({cal.path}, sha256 {cal.sha256[:12]}), "
            f"{len(src.get('model', []))} from the uncalibrated model"
            + (f": {', '.join(src['model'])}" if src.get("model") else ""))
        costed = costed.with_meta(calibration={"path": cal.path, "sha256": cal.sha256,
                                               "constants": {o.id: o.attr("calibration") for o in costed.ops
                                                             if o.cost_source == "calibrated"}})
    return costed


def solve_modulo(g: LoopGraph, kir: KernelIR | None, machine: Machine, opts: OptimizeOptions,
                 say: Say) -> tuple[Schedule, tuple[tuple[str, str], ...], dict[str, Any]]:
    """The optimal modulo schedule and, when it goes to Triton and breaks the installed pipeliner's
    constraints, the best one that Triton compiles, with the unconstrained optimum recorded beside it."""
    solve_opts = solver_options(opts)
    modulo = modulo_schedule(ModuloProblem.from_graph(g, machine.units), opts.backend, solve_opts)
    say(f"modulo schedule: II={modulo.ii} L={modulo.length} ({modulo.status})")
    stage_order, realisability = realisability_pairs(g, kir, opts)
    if stage_order and modulo.status in ("optimal", "feasible") and _violates(modulo, stage_order):
        free = modulo
        modulo = modulo_schedule(ModuloProblem.from_graph(g, machine.units, stage_order), opts.backend, solve_opts)
        realisability["unconstrained"] = {"ii": free.ii, "length": free.length, "status": free.status,
                                          "start": dict(free.start)}
        late = sorted({d for a, d in stage_order if free.start_map[a] // free.ii > free.start_map[d] // free.ii})
        say(f"realisable by triton {realisability['triton']}: II={modulo.ii} L={modulo.length} ({modulo.status}); "
            f"the unconstrained optimum II={free.ii} puts {', '.join(late)} in an earlier stage than the last, "
            "which this Triton's pipeliner cannot predicate")
    return modulo, stage_order, realisability


def solver_options(opts: OptimizeOptions) -> SolveOptions:
    return SolveOptions(time_limit=opts.time_limit, **({"threads": opts.threads} if opts.threads else {}))


def solve_joint(g: LoopGraph, machine: Machine, opts: OptimizeOptions, modulo: Schedule, norm: dict[str, Any],
                stage_order: tuple[tuple[str, str], ...], say: Say) -> Schedule:
    """Algorithm 1 seeded with the modulo schedule; the modulo schedule itself when only SWP was asked
    for, or when the joint search found no warp assignment: then its ``joint`` record says what was
    searched and why nothing was found, so the modulo schedule's status is not taken for the joint's; or
    when the joint problem refuses the kernel (num_warps above what a CTA may specialise: the reason
    travels with it)."""
    if opts.swp_only or modulo.status not in ("optimal", "feasible"):
        return modulo
    jopts = replace(JointOptions.coerce(opts), stage_order=stage_order)
    budget = jopts.total_time if jopts.total_time is not None else 10 * jopts.time_limit
    tried: set[int] = set()

    def step(ii: int, length: int, spent: float) -> None:
        tried.add(ii)
        say(f"joint search: I={ii} L={length} (I values tried: {len(tried)}; {spent:.1f} of the {budget:g} "
            "deterministic s budget, --total-time)")

    try:
        joint = joint_search(g, machine, jopts, seed=modulo.with_extra(normalization=norm), progress=step,
                             backend=opts.joint_backend)
    except (MachineError, InputError) as e:   # the joint problem refuses this kernel (more warps than a CTA splits)
        say(f"joint search: not run: {e}; keeping the modulo schedule")
        return modulo.with_extra(joint={"refused": str(e)})
    if joint.status in ("optimal", "feasible"):
        say(f"joint search: {joint.status} at I={joint.ii} after {len(tried)} I value(s), {joint.solve_seconds:.1f} s "
            f"({_spent(joint)})")
        if joint.ii > modulo.ii:
            wg = joint.get("warp_groups") or {}
            say(f"joint search: I={joint.ii} above the modulo II={modulo.ii}: with {wg.get('compute')} compute "
                f"warp group(s) of {wg.get('warps_per_group')} warps, blocking waits serialise issue "
                "(the modulo problem ignores warps); sub-tiling the loop gives the solver more groups")
        return joint
    failed = joint_failure(joint, budget)
    say(f"joint search: {failed['summary']}; keeping the modulo schedule, without a warp assignment")
    return modulo.with_extra(joint=failed)


def _spent(s: Schedule) -> str:
    """What a search spent of its deterministic budget, and which limit ended it, in words."""
    b = s.get("budget") or {}
    if not b:
        return "no budget recorded"
    why = {None: "", "budget": "; its budget ended it", "wall cap": "; the wall-clock safety cap ended it, "
           "not reproducible"}.get(b.get("stopped_by"), f"; {b.get('stopped_by')} ended it")
    return f"{b.get('spent', 0):.3g} of {b.get('limit', 0):g} {b.get('unit', 'deterministic seconds')}{why}"


def joint_failure(joint: Schedule, budget: float) -> dict[str, Any]:
    """What a joint search that found no warp assignment proved and did not: the I values searched,
    those refuted and those left open (a solver call that timed out), ``infeasible`` when every one
    was refuted, ``timeout`` otherwise, as a record and one line."""
    refuted: set[int] = set()
    left_open: set[int] = set()
    for t in joint.get("search") or []:
        iis = range(t["ii"][0], t["ii"][1] + 1) if isinstance(t["ii"], list) else [t["ii"]]
        (refuted if t.get("result") == "unsat" else left_open if t.get("result") == "timeout" else set()).update(iis)
    refuted -= left_open
    searched = refuted | left_open
    span = [min(searched), max(searched)] if searched else None
    where = f"I = {intervals(searched)}" if span else "any I"
    stopped_by = (joint.get("budget") or {}).get("stopped_by")
    ended = {"budget": f"the {budget:g} deterministic s budget (--total-time) ran out",
             "wall cap": "the wall-clock safety cap stopped the search (not reproducible)"}.get(stopped_by or "")
    if joint.status == "infeasible" or not left_open:
        why = f"{len(refuted)} of {len(searched)} I values refuted" if span else "refuted"
        why += f"; {ended}" if ended and joint.status != "infeasible" else ""
    else:
        stop = ended or f"the search stopped after {joint.solve_seconds:.0f} s"
        first = sorted(left_open)[:3]
        why = (f"{len(refuted)} refuted, {len(left_open)} left open ({', '.join(map(str, first))}"
               f"{', ...' if len(left_open) > 3 else ''}: a solver call hit --time-limit or the budget); {stop}")
    ceiling = (joint.get("search_summary") or {}).get("ii_ceiling")
    label = joint.status
    if span and ceiling is not None and span[1] >= ceiling:
        why += f"; no I above {ceiling} is tried: there the iterations no longer overlap"
        if not left_open and not ended:     # every I where iterations overlap refuted: a proof, not a timeout
            label = "infeasible"            # (trident's group-norm backward had read "timeout: 17 of 17 refuted")
    # (the record's status, which the status line reads, had said "timeout" beside "17 of 17 refuted")
    return {"status": label, "ii_searched": span, "ii_refuted": len(refuted), "ii_open": sorted(left_open),
            "ii_ceiling": ceiling, "seconds": round(joint.solve_seconds, 2), "budget": joint.get("budget"),
            "summary": f"no warp assignment found for {where} ({label}: {why})", "search": joint.get("search")}


def intervals(values: set[int]) -> str:
    """Integers as their runs, ``483..665 and 3610`` (a search that probed the ceiling I had read "483..3610", a
    range it had not searched)."""
    runs: list[list[int]] = []
    for v in sorted(values):
        if runs and v == runs[-1][1] + 1:
            runs[-1][1] = v
        else:
            runs.append([v, v])
    said = [f"{a}..{b}" if b > a else f"{a}" for a, b in runs]
    return ", ".join(said[:-1]) + " and " + said[-1] if len(said) > 1 else said[0]


def check(g: LoopGraph, machine: Machine, schedule: Schedule, where: str) -> None:
    if schedule.status not in ("optimal", "feasible"):
        return
    violations = verify(g, machine, schedule)
    if violations:
        raise TwillError("schedule failed the independent checker", where=where,
                         expected="no violations", found="; ".join(str(v) for v in violations[:5]))


def emit(kir: KernelIR | None, g: LoopGraph, schedule: Schedule, norm: dict[str, Any], machine: Machine,
         opts: OptimizeOptions) -> tuple[Schedule, str | None, list[str]]:
    """The annotated TTGIR (stages, and the warp assignment as Triton partitions where the installed
    Triton compiles them) and the source hints, when the input had TTGIR. The annotator reads the
    schedule's time unit (cycles per unit) from its normalisation ``norm``."""
    if not (opts.annotate and kir is not None and schedule.status in ("optimal", "feasible")):
        return schedule, None, []
    notes: list[str] = []
    annotated = annotate_ttgir(kir.text, g, schedule.with_extra(normalization=norm), machine)
    checked = False
    if schedule.warp:
        # Kept only if the installed Triton compiles it (else the stages-only annotation, with the
        # reason in its header).
        ws = annotate_warps(kir.text, g, schedule.with_extra(normalization=norm), machine, kir.spec)
        annotated = ws.text
        schedule = schedule.with_extra(warp_specialization=ws.to_dict())
        notes.append("annotated TTGIR (for Triton's own passes; the Gluon kernel decides its partitions itself): "
                     + ws.line())
        checked = ws.warp_specialized and ws.checked
    if not checked:            # the stages-only annotation is compiled offline too, and says so
        schedule, annotated, line = check_stages(kir, annotated, schedule, machine)
        notes.append(line)
    h = hints(g, schedule.with_extra(normalization=norm), machine)
    schedule = schedule.with_extra(hints=h.to_dict())
    notes.append(h.text(g.get("loop_where") or g.get("loop_line")))   # a helper's loop: its own line, and the call's
    return schedule, annotated, notes


def check_stages(kir: KernelIR, annotated: str, schedule: Schedule, machine: Machine) -> tuple[Schedule, str, str]:
    """Compile the stages-only annotation offline when the kernel's source is at hand: the schedule
    records whether it compiled, a header line marks one that does not, and the returned line says which."""
    if kir.spec is None:
        line = "annotated TTGIR: not compiled (the input is a .ttgir: no kernel source to compile it with)"
        return schedule.with_extra(annotation={"compiled": None}), annotated, line
    error = check_annotation(kir.spec, machine, annotated)
    where = f"triton {triton_version()}, sm_{machine.sm}"
    if error is None:
        return schedule.with_extra(annotation={"compiled": True}), annotated, f"annotated TTGIR: compiled offline ({where})"
    annotated = f"// twill: THIS ANNOTATION DOES NOT COMPILE ({where}): {error}\n" + annotated
    return (schedule.with_extra(annotation={"compiled": False, "error": error}), annotated,
            f"annotated TTGIR: does NOT compile offline ({where}): {error}")


def record(schedule: Schedule, phases: dict[str, float], norm: dict[str, Any], machine: Machine,
           costed: LoopGraph, graph: LoopGraph, source_sha: str) -> Schedule:
    """The schedule with what it was solved from: step times, normalisation, machine, costs, prediction."""
    return schedule.with_extra(
        phases={k: round(v, 4) for k, v in phases.items()},
        normalization=norm, capacity=machine.units, arch=machine.name, machine=machine.name,
        kernel=graph.get("kernel", graph.name), triton_version=triton_version(),
        source_sha256=source_sha,
        cost_sources=cost_sources(costed), **({"calibration": costed.get("calibration")}
                                              if costed.get("calibration") else {}),
        cycles={o.id: o.cycles for o in costed.ops},
        predicted={"iteration_cycles": round(schedule.ii * norm["scale"], 1),
                   "length_cycles": round(schedule.length * norm["scale"], 1)})


def cost_sources(g: LoopGraph) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for o in g.ops:
        out.setdefault(o.cost_source or "model", []).append(o.id)
    return out


OUTPUTS = ("schedule.json", "graph.json", "pre_pipeline.ttgir", "annotated.ttgir", "schedule.html",
           "validation.json", "gluon.json", "kernel_gluon.py", "kernel_gluon.ttgir", "gluon.html")


def write_outputs(result: OptimizeResult, out_dir: str | Path, run: dict[str, Any] | None = None) -> list[Path]:
    """Write schedule.json (with ``run``, what was asked, when given), graph.json, the annotated TTGIR
    and schedule.html into ``out_dir``, each atomically (temp file then rename) and all under
    ``WRITING`` (a Ctrl-C waits for them); an output of an earlier run that this one does not write
    (an annotated TTGIR, a validation of the replaced schedule) is removed. One ``InputError`` when
    the folder cannot be written."""
    out = Path(out_dir)
    sched = result.schedule.to_dict()
    if run is not None:
        sched["run"] = run
    sched["graph"] = graph_to_dict(result.scheduled_graph)
    files: dict[str, str] = {
        "schedule.json": json.dumps(sched, indent=1) + "\n",
        "graph.json": json.dumps(graph_to_dict(result.graph), indent=1) + "\n",
    }
    if result.pre_ttgir:
        files["pre_pipeline.ttgir"] = result.pre_ttgir
    if result.annotated_ttgir:
        files["annotated.ttgir"] = result.annotated_ttgir
    files["schedule.html"] = render_html(sched, graph_to_dict(result.graph))
    g = result.gluon
    if g is not None and g.kernel is not None and g.chosen is not None:
        gs = g.chosen.schedule.to_dict()
        gs["graph"] = graph_to_dict(g.chosen.graph)
        gs["gluon"] = g.to_dict()
        files["gluon.json"] = json.dumps(gs, indent=1) + "\n"
        files["kernel_gluon.py"] = g.kernel.source
        files["kernel_gluon.ttgir"] = g.ttgir or ""
        files["gluon.html"] = render_html(gs, graph_to_dict(g.chosen.costed))
    try:
        with WRITING:
            out.mkdir(parents=True, exist_ok=True)
            written = [atomic_write(out / name, text) for name, text in files.items()]
            for name in OUTPUTS:
                if name not in files and (out / name).is_file():
                    (out / name).unlink()
    except OSError as e:
        raise InputError("cannot write the outputs", where=str(out), found=e.strerror or str(e)) from None
    return written


def realisability_pairs(g: LoopGraph, kir: KernelIR | None,
                        opts: OptimizeOptions) -> tuple[tuple[tuple[str, str], ...], dict[str, Any]]:
    """The installed Triton's pipeliner constraints on ``g`` as stage-order pairs (every compute op
    no later than each dot: Triton 3.6 cannot predicate a dot before the last stage), and their record
    for the schedule; nothing when the schedule does not go to Triton or ``opts.realisable`` is off."""
    if not (opts.realisable and opts.annotate and kir is not None):
        return (), {}
    version = triton_version()
    constraints = realisability_constraints(g, version)
    compute = [o.id for o in g.ops if not ahead(o)]   # what is not a load running ahead (stage 0)
    pairs = tuple((v, d) for c in constraints if c.kind == "last_stage" for d in c.ops for v in compute if v != d)
    if not pairs:
        return (), {}
    return pairs, {"triton": version, "constraints": [c.to_dict() for c in constraints]}


def _violates(s: Schedule, pairs: tuple[tuple[str, str], ...]) -> bool:
    st = s.start_map
    return any(st[a] // s.ii > st[b] // s.ii for a, b in pairs)
