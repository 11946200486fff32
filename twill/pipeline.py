"""The optimize pipeline, top to bottom: kernel -> graph -> costs -> normalised costs -> modulo
schedule -> joint schedule -> checked schedule, annotated IR, schedule JSON and HTML."""
from __future__ import annotations

import dataclasses
import hashlib
import json
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from twill.errors import InputError, TwillError
from twill.graph.model import LoopGraph
from twill.schedule.model import Schedule


@dataclass(frozen=True)
class OptimizeOptions:
    """What ``twill optimize`` was asked to do (the command's flags, solver-neutral)."""

    swp_only: bool = False
    backend: str = "cpsat"               # modulo ILP backend: cpsat | scip
    joint_backend: str = "cpsat"         # joint problem backend: cpsat | z3
    time_limit: float = 60.0             # seconds per solver call
    normalize_bound: int = 300           # U of the paper's section 5.2
    profile: str | None = None           # measured profile JSON (twill profile)
    kernel: str | None = None
    loop: int | None = None
    args: tuple[tuple[str, str], ...] = ()
    consts: tuple[tuple[str, str], ...] = ()
    num_warps: int | None = None
    warp_groups: int | None = None
    reg_limit: int | None = None
    no_cross_warp: bool = False
    annotate: bool = True                # write the annotated TTGIR when the input has TTGIR
    threads: int | None = None           # solver workers per call (None: SolveOptions' default)
    realisable: bool = True              # honour the installed Triton's pipeliner constraints (codegen)


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


def sha256(data: str | bytes) -> str:
    return hashlib.sha256(data.encode() if isinstance(data, str) else data).hexdigest()


class _Timer:
    """Times each named step; the record becomes the schedule's ``phases``."""

    def __init__(self) -> None:
        self.phases: dict[str, float] = {}

    def __call__(self, name: str, fn: Callable[..., Any], *a: Any, **kw: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return fn(*a, **kw)
        finally:
            self.phases[name] = self.phases.get(name, 0.0) + time.perf_counter() - t0


def extract(path: str, arch: str, opts: OptimizeOptions) -> tuple[LoopGraph, str | None, str]:
    """Graph of the loop in ``path`` (kernel .py, .ttgir or graph .json), the pre-pipeline TTGIR when
    there is one, and the hash of the input source."""
    p = Path(path)
    if not p.is_file():
        raise InputError("no such file", where=path, expected="a kernel .py, a .ttgir or a graph .json")
    text = p.read_text()
    if p.suffix == ".json":
        from twill.graph.io import graph_from_dict

        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise InputError("malformed graph JSON", where=f"{path}:{e.lineno}", expected="JSON",
                             found=e.msg) from None
        return graph_from_dict(data, where=path), None, sha256(text)
    from twill.ir import frontend

    graph, ttgir = frontend.graph_for_file(path, arch, kernel=opts.kernel, loop=opts.loop, args=dict(opts.args),
                                           consts=dict(opts.consts), num_warps=opts.num_warps)
    return graph, ttgir, sha256(text)


def optimize(path: str, arch: str, opts: OptimizeOptions = OptimizeOptions(),
             progress: Callable[[str], None] | None = None) -> OptimizeResult:
    """Run the whole pipeline on one kernel.

    Examples
    --------
    >>> r = optimize("kernels/gemm.py", "h100", OptimizeOptions(swp_only=True))  # doctest: +SKIP
    >>> r.schedule.ii, r.schedule.status                                          # doctest: +SKIP
    """
    import triton

    from twill.machine.cost import annotate_costs
    from twill.machine.model import load_machine, machine_sha
    from twill.schedule.verify import verify
    from twill.solve.modulo import modulo_schedule
    from twill.solve.normalize import normalize_graph
    from twill.solve.problem import ModuloProblem, SolveOptions

    say = progress or (lambda _msg: None)
    timer = _Timer()
    machine = load_machine(arch)                                   # unknown arch fails before any work
    # 1. The loop's dependence graph, from Triton's own pre-pipeline TTGIR.
    graph, pre_ttgir, source_sha = timer("extract", extract, path, arch, opts)
    say(f"graph: {len(graph.ops)} ops, {len(graph.deps)} edges")
    # 2. Costs: the machine model, or measured latencies where a profile has them.
    profile = _load_profile(opts.profile, graph, arch) if opts.profile else None
    costed = timer("cost", annotate_costs, graph, machine, profile)
    if profile is not None:
        src = _cost_sources(costed)
        measured, model = src.get("profile", []), [n for k, v in src.items() if k != "profile" for n in v]
        say(f"costs: {len(measured)} measured (profile {opts.profile}), {len(model)} from the machine model"
            + (f": {', '.join(model)}" if model else ""))
    # 3. Small integer costs with the same ratios, so the exact solvers stay tractable (paper 5.2).
    scaled, norm = timer("normalize", normalize_graph, costed, opts.normalize_bound)
    say(f"normalised: 1 unit = {norm['scale']:.1f} cycles, worst ratio error {norm['worst_ratio_error']:.3f}")
    solve_opts = SolveOptions(time_limit=opts.time_limit, **({"threads": opts.threads} if opts.threads else {}))
    # 4. Optimal modulo schedule: the smallest II the units and recurrences allow, proved.
    problem = ModuloProblem.from_graph(scaled, machine.units)
    modulo = timer("modulo", modulo_schedule, problem, opts.backend, solve_opts)
    say(f"modulo schedule: II={modulo.ii} L={modulo.length} ({modulo.status})")
    # 4b. Realisability: a schedule that goes to Triton must be one the installed Triton's pipeliner
    # can compile; its constraints become stage-order constraints that the solvers honour.
    stage_order, realisability = _realisability(scaled, pre_ttgir, opts)
    if stage_order and modulo.status in ("optimal", "feasible") and _violates(modulo, stage_order):
        free = modulo
        modulo = timer("modulo_realisable", modulo_schedule,
                       ModuloProblem.from_graph(scaled, machine.units, stage_order), opts.backend, solve_opts)
        realisability["unconstrained"] = {"ii": free.ii, "length": free.length, "status": free.status,
                                          "start": dict(free.start)}
        say(f"realisable by triton {realisability['triton']}: II={modulo.ii} L={modulo.length} ({modulo.status}); "
            f"the unconstrained optimum II={free.ii} puts a dot in an earlier stage than the last, which this "
            "Triton's pipeliner cannot predicate")
    schedule = modulo
    # 5. Joint software pipeline + warp assignment (Algorithm 1), unless only SWP was asked for.
    if not opts.swp_only and modulo.status in ("optimal", "feasible"):
        from twill.solve.search import joint_search

        from twill.solve.search import JointOptions

        jopts = replace(JointOptions.coerce(opts), stage_order=stage_order)
        joint = timer("joint", joint_search, scaled, machine, jopts, seed=modulo.with_extra(normalization=norm),
                      progress=say, backend=opts.joint_backend)
        if joint.status in ("optimal", "feasible"):
            schedule = joint
            if joint.ii > modulo.ii:
                wg = joint.get("warp_groups") or {}
                say(f"joint search: I={joint.ii} above the modulo II={modulo.ii}: with {wg.get('compute')} compute "
                    f"warp group(s) of {wg.get('warps_per_group')} warps, blocking waits serialise issue "
                    "(the modulo problem ignores warps); sub-tiling the loop gives the solver more groups")
        else:
            # No joint schedule within the searched (I, L) range: keep the proved modulo schedule
            # and say so; the search trace travels with it.
            schedule = modulo.with_extra(joint={"status": joint.status, "search": joint.get("search")})
            ends = [i for t in joint.get("search") or [] for i in (t["ii"] if isinstance(t["ii"], list) else [t["ii"]])]
            span = f"I = {min(ends)}..{max(ends)}" if ends else "no I"
            say(f"joint search: no warp assignment for {span} ({joint.status} there); keeping the modulo schedule")
    if realisability:
        schedule = schedule.with_extra(realisability=realisability)
    # 6. Every schedule goes through the independent checker.
    if schedule.status in ("optimal", "feasible"):
        violations = timer("verify", verify, scaled, machine, schedule)
        if violations:
            raise TwillError("schedule failed the independent checker", where=graph.name,
                             expected="no violations", found="; ".join(str(v) for v in violations[:5]))
    # 7. The annotated TTGIR that Triton compiles (codegen), when the input had TTGIR.
    annotated = None
    notes: list[str] = []
    if opts.annotate and pre_ttgir is not None and schedule.status in ("optimal", "feasible"):
        try:
            from codegen.annotate import annotate_ttgir
        except ImportError:
            annotated = None
        else:
            # The annotator reads the schedule's time unit (cycles per unit) from its normalisation.
            annotated = timer("annotate", annotate_ttgir, pre_ttgir, scaled, schedule.with_extra(normalization=norm))
            if schedule.warp:
                # The warp assignment as Triton partitions, kept only if the installed Triton
                # compiles it (else the stages-only annotation above, with the reason in its header).
                from codegen.warps import annotate as annotate_warps

                spec = _kernel_spec(path, arch, opts)
                ws = timer("annotate_warps", annotate_warps, pre_ttgir, scaled,
                           schedule.with_extra(normalization=norm), spec, arch if spec is not None else None)
                annotated = ws.text
                schedule = schedule.with_extra(warp_specialization=ws.to_dict())
                notes.append(ws.line())
            from codegen.hints import hints

            h = hints(scaled, schedule.with_extra(normalization=norm))
            schedule = schedule.with_extra(hints=h.to_dict())
            notes.append(h.text(graph.get("loop_line")))
    schedule = schedule.with_extra(
        phases={k: round(v, 4) for k, v in timer.phases.items()},
        normalization=norm, capacity=machine.units, arch=arch, machine=machine.name,
        kernel=graph.get("kernel", graph.name), triton_version=triton.__version__,
        source_sha256=source_sha,
        cost_sources=_cost_sources(costed),
        cycles={o.id: o.cycles for o in costed.ops},
        predicted={"iteration_cycles": round(schedule.ii * norm["scale"], 1),
                   "length_cycles": round(schedule.length * norm["scale"], 1)},
    )
    return OptimizeResult(
        graph=costed, scheduled_graph=scaled, schedule=schedule, pre_ttgir=pre_ttgir, annotated_ttgir=annotated,
        kernel_source_sha=source_sha, ttgir_sha=sha256(pre_ttgir) if pre_ttgir else sha256(json.dumps(
            _graph_dict(graph), sort_keys=True)),
        machine_sha=machine_sha(machine), profile_sha=sha256(Path(opts.profile).read_bytes()) if opts.profile else None,
        triton_version=triton.__version__, kernel_name=str(graph.get("kernel", graph.name)),
        config={"num_warps": graph.get("num_warps")}, phases=dict(timer.phases), notes=tuple(notes))


def _kernel_spec(path: str, arch: str, opts: OptimizeOptions) -> Any:
    """The kernel specialisation of a kernel .py (to compile the annotated IR with), else None."""
    if Path(path).suffix != ".py":
        return None
    from twill.ir.load import load_kernel

    return load_kernel(path, arch, opts.kernel, dict(opts.args), dict(opts.consts), opts.num_warps)


def _graph_dict(g: LoopGraph) -> dict[str, Any]:
    from twill.graph.io import graph_to_dict

    return graph_to_dict(g)


def _cost_sources(g: LoopGraph) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for o in g.ops:
        out.setdefault(o.cost_source or "model", []).append(o.id)
    return out


def _load_profile(path: str, graph: LoopGraph, arch: str) -> dict[str, float]:
    """Measured per-node cycles from a ``twill profile`` file, refused when it is another kernel's."""
    from profiling.profile import load_profile_for

    return load_profile_for(path, graph, arch)


def write_outputs(result: OptimizeResult, out_dir: str | Path) -> list[Path]:
    """Write schedule.json, graph.json, the annotated TTGIR and schedule.html into ``out_dir``,
    each atomically (temp file then rename), so nothing is left half-written."""
    from twill.graph.io import graph_to_dict

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    sched = result.schedule.to_dict()
    sched["graph"] = graph_to_dict(result.scheduled_graph)
    files: dict[str, str] = {
        "schedule.json": json.dumps(sched, indent=1) + "\n",
        "graph.json": json.dumps(graph_to_dict(result.graph), indent=1) + "\n",
    }
    if result.pre_ttgir:
        files["pre_pipeline.ttgir"] = result.pre_ttgir
    if result.annotated_ttgir:
        files["annotated.ttgir"] = result.annotated_ttgir
    try:
        from twill.view import render_html
    except ImportError:
        pass
    else:
        files["schedule.html"] = render_html(sched, graph_to_dict(result.graph))
    written = []
    for name, text in files.items():
        target = out / name
        tmp = target.with_name(f".{name}.tmp")
        tmp.write_text(text)
        tmp.replace(target)
        written.append(target)
    return written


def replace_options(opts: OptimizeOptions, **kv: Any) -> OptimizeOptions:
    return dataclasses.replace(opts, **kv)


def _realisability(g: Any, pre_ttgir: str | None, opts: OptimizeOptions) -> tuple[tuple[tuple[str, str], ...], dict]:
    """The installed Triton's pipeliner constraints on ``g`` as stage-order pairs (every compute op
    no later than each dot: Triton 3.6 cannot predicate a dot before the last stage), and their record
    for the schedule; nothing when the schedule does not go to Triton or ``opts.realisable`` is off."""
    if not (opts.realisable and opts.annotate and pre_ttgir is not None):
        return (), {}
    try:
        from codegen.annotate import realisability_constraints
    except ImportError:
        return (), {}
    import triton

    constraints = realisability_constraints(g, triton.__version__)
    compute = [o.id for o in g.ops if not o.variable_latency]
    pairs = tuple((v, d) for c in constraints if c.kind == "last_stage" for d in c.ops for v in compute if v != d)
    if not pairs:
        return (), {}
    return pairs, {"triton": triton.__version__, "constraints": [c.to_dict() for c in constraints]}


def _violates(s: Any, pairs: tuple[tuple[str, str], ...]) -> bool:
    st = s.start_map
    return any(st[a] // s.ii > st[b] // s.ii for a, b in pairs)
