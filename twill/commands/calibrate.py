"""``twill calibrate PROFILE.json ... --arch A``: fit the machine model's constants from measured profiles,
write them with the profiles they came from to ``twill/machine/calibration/<arch>.toml``, and show how far
the predicted cycles per iteration are from the measured ones before and after (``--leave-one-out``:
each profile predicted from a fit on the others, the out-of-sample figure)."""
from __future__ import annotations

import argparse
import json
import os
import statistics
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from profiling.profile import graph_sha256, load_profile, load_profile_for
from twill.commands.common import add_arch, machine, reporter
from twill.errors import InputError, MachineError, ProfileError
from twill.graph.io import graph_from_dict
from twill.graph.model import LoopGraph
from twill.ir.frontend import KernelIR
from twill.machine.calibrate import (ASYNC_UNITS, BOUND_TOLERANCE, Bound, Calibration, Source, calibration_path,
                                     fit_latency, fit_throughput, merged, rates_sha256, read_calibration, samples,
                                     to_toml)
from twill.machine.cost import annotate_costs
from twill.machine.model import Machine
from twill.pipeline import OptimizeOptions, extract, solve_modulo
from twill.solve.normalize import normalize_graph
from twill.util import WRITING, atomic_write, sha256

KERNELS = Path(__file__).resolve().parents[2] / "kernels"


@dataclass(frozen=True)
class Case:
    """One profile and the loop graph it measured (with its kernel IR when rebuilt from the kernel file,
    so that the prediction honours the installed Triton's pipeliner constraints as ``optimize`` does)."""

    label: str
    source: Source
    profile: dict[str, Any] = field(compare=False)
    graph: LoopGraph = field(compare=False)
    kir: KernelIR | None = field(compare=False)

    @property
    def measured(self) -> float:
        return float(self.profile["iteration"]["median_cycles"])

    @property
    def plain(self) -> float | None:
        """The uninstrumented iteration as ``twill validate`` estimates it: measured / overhead ratio."""
        ratio = (self.profile.get("overhead") or {}).get("ratio")
        return round(self.measured / float(ratio), 1) if ratio else None


@dataclass(frozen=True)
class Prediction:
    """Cycles per iteration of twill's schedule under some costs, each unit's modelled busy cycles, and
    the asynchronous unit that bounds it (None: the chain or another unit does)."""

    cycles: float | None
    busy: dict[str, float]
    bound_by: str | None


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("profiles", nargs="+", metavar="PROFILE.json", help="profiles written by `twill profile`")
    add_arch(p, "the machine model to calibrate (every profile must be of it)")
    p.add_argument("-o", "--out", default=None, metavar="FILE",
                   help="calibration file to write or update (default: twill/machine/calibration/<arch>.toml)")
    p.add_argument("--fresh", action="store_true", help="replace the file's constants instead of updating them")
    p.add_argument("--dry-run", action="store_true", help="fit and report, write nothing")
    p.add_argument("--leave-one-out", action="store_true",
                   help="also predict each profile from a fit on the other profiles (out of sample)")
    p.add_argument("--kernels", default=str(KERNELS), metavar="DIR",
                   help="where the profiled kernel files are found by their source hash (default: kernels/)")
    p.add_argument("--check", action="append", default=[], metavar="PROFILE.json",
                   help="a profile to predict with the fit without fitting on it (held out; repeatable)")
    p.add_argument("--graph", action="append", default=[], metavar="GRAPH.json",
                   help="a graph.json a profile may have measured, matched by its loop-graph hash (repeatable)")
    p.add_argument("--time-limit", type=float, default=30.0, help="deterministic seconds per solver call (default 30; see twill optimize --help)")
    p.add_argument("--quiet", action="store_true")


def run(args: argparse.Namespace) -> int:
    m = machine(args)
    out = Path(args.out) if args.out else calibration_path(m.name)
    say = reporter(args.quiet)
    cases = [load_case(p, m, Path(args.kernels), args.graph, say) for p in args.profiles]
    checks = [load_case(p, m, Path(args.kernels), args.graph, say) for p in args.check]
    seen: dict[str, str] = {}
    for c in cases + checks:
        if c.source.sha256 in seen:
            raise InputError("the same profile twice", where=c.source.path, found=f"also {seen[c.source.sha256]}")
        seen[c.source.sha256] = c.source.path
    predict = Predictor(m, args.time_limit)
    cal = fit(cases, m, predict)
    print(constants_text(cal))
    print(predictions_text(cases, checks, m, cal, predict))
    if args.leave_one_out:
        print(leave_one_out_text(cases, m, predict))
    if args.dry_run:
        print("not written (--dry-run)")
        return 0
    written = write(merged(None if args.fresh else previous(out, m, say), cal), out)
    rel = os.path.relpath(written)
    print(f"wrote {rel if not rel.startswith('..') else written}")
    return 0


def load_case(path: str, m: Machine, kernels: Path, graphs: list[str], say: Callable[[str], None]) -> Case:
    """A profile of ``m``'s GPU with the graph it measured; one ``TwillError`` when it is missing, not a
    profile, of another arch, without a measured iteration, or of another version of the loop."""
    if not Path(path).is_file():
        raise InputError("no such profile", where=path, expected="a profile.json written by `twill profile`")
    d = load_profile(path)
    if d.get("arch") != m.name:
        raise ProfileError("profile is of another arch", where=path, expected=m.name, found=str(d.get("arch")))
    it = (d.get("iteration") or {}).get("median_cycles")
    if not isinstance(d.get("nodes"), dict) or not isinstance(it, (int, float)) or it <= 0:
        raise ProfileError("profile without per-node latencies and a measured iteration", where=path,
                           expected="nodes and iteration.median_cycles", found=f"iteration {it!r}")
    graph, kir = graph_of(path, d, m, kernels, graphs, say)
    lost = d.get("lost_records") or {}
    if lost.get("units_short"):
        say(f"note: {path}: {lost.get('records_kept_per_warp')} of {lost.get('records_expected_per_warp')} "
            "records per warp kept; its medians are of the first iterations only")
    if kir is None:
        say(f"note: {path}: predicted from graph.json, without the installed Triton's pipeliner constraints")
    label = Path(path).parent.name or Path(path).stem
    return Case(label, Source.of(path), d, graph, kir)


def graph_of(path: str, d: dict[str, Any], m: Machine, kernels: Path, graphs: list[str],
             say: Callable[[str], None]) -> tuple[LoopGraph, KernelIR | None]:
    """The profiled loop's graph, checked against the profile (kernel, node ids, loop-graph hash): rebuilt
    from the kernel file in ``kernels`` whose source hash the profile records, as ``optimize`` builds it;
    else a graph.json of the same hash (beside the profile, in its schedule folder, or given with
    ``--graph``). When the rebuilt graph's hash differs from the profile's but a graph.json of the
    profile's hash has the same nodes, shapes, attributes and edges (an extractor that now folds a view
    op into another node), the rebuilt one is used, and a note says so."""
    rebuilt, kir = rebuild(d, m, kernels)
    if rebuilt is not None and d.get("graph_sha256") in (None, graph_sha256(rebuilt)):
        load_profile_for(path, rebuilt, m.name)
        return rebuilt, kir
    schedule = Path(str(d["schedule"])) / "graph.json" if d.get("schedule") else None
    files = [Path(path).parent / "graph.json", schedule, *map(Path, graphs)]
    matched = next((g for f in files if f is not None and f.is_file()
                    for g in [read_graph(f)] if graph_sha256(g) == d.get("graph_sha256")), None)
    if matched is None:
        if rebuilt is not None:
            try:
                load_profile_for(path, rebuilt, m.name)     # refuses it, in one line
            except ProfileError as e:
                raise ProfileError(e.what, where=e.where, expected=e.expected, found=e.found,
                                   hint="; ".join(filter(None, [e.hint, "or pass --graph GRAPH.json of the profile's loop"]))) from None
        raise ProfileError("no graph for the profile", where=path,
                           expected=f"its kernel file (source sha256 {str(d.get('kernel_source_sha256'))[:12]}) in "
                                    f"{kernels}, or a graph.json of loop-graph hash {str(d.get('graph_sha256'))[:12]}",
                           found="neither", hint="pass --kernels DIR or --graph GRAPH.json")
    load_profile_for(path, matched, m.name)
    if rebuilt is not None and not loop_differences(rebuilt, matched):
        say(f"note: {path}: the kernel's loop graph rebuilt now hashes {graph_sha256(rebuilt)[:12]}, not the "
            f"profile's {str(d.get('graph_sha256'))[:12]}, but has the nodes, shapes, attributes and edges of "
            f"{matched.get('graph_file')} (only the TTGIR ops folded into nodes differ): the rebuilt graph is used")
        return rebuilt, kir
    say(f"note: {path}: predicted from {matched.get('graph_file')}, without the installed Triton's pipeliner "
        "constraints" + (f" (the rebuilt graph differs: {'; '.join(loop_differences(rebuilt, matched)[:3])})"
                         if rebuilt is not None else ""))
    return matched, None


def rebuild(d: dict[str, Any], m: Machine, kernels: Path) -> tuple[LoopGraph | None, KernelIR | None]:
    """The graph and kernel IR of the kernel file in ``kernels`` whose hash the profile records."""
    sha = str(d.get("kernel_source_sha256") or "")
    for f in sorted(kernels.glob("*.py")) if kernels.is_dir() and sha else []:
        if sha256(f.read_bytes()) == sha:
            graph, kir, _ = extract(str(f), m, OptimizeOptions(kernel=d.get("kernel")))
            return graph, kir
    return None, None


def read_graph(f: Path) -> LoopGraph:
    try:
        return graph_from_dict(json.loads(f.read_text()), where=str(f)).with_meta(graph_file=str(f))
    except json.JSONDecodeError as e:
        raise InputError("malformed graph JSON", where=f"{f}:{e.lineno}", expected="JSON", found=e.msg) from None


COSTED = ("model_cycles", "latency_cycles", "calibration")   # attributes costing adds: not the loop's


def loop_differences(a: LoopGraph, b: LoopGraph) -> list[str]:
    """What the cost model and the schedule can tell apart between two graphs of a loop: node ids,
    kinds, units, shapes, dtypes, cost attributes, streaming, and the edges (not the TTGIR op lists). An attribute
    only one of the two records is no difference (an extractor that now records more: a reduction's spread,
    ``twill.ir.layouts``, since session 62); one both record with other values is."""
    def sig(g: LoopGraph) -> dict[str, Any]:
        return {o.id: (o.kind, o.unit, o.shape, o.dtype, o.streaming, o.variable_latency) for o in g.ops}

    def attrs(g: LoopGraph) -> dict[str, dict[str, Any]]:
        return {o.id: {k: v for k, v in o.attrs if k not in COSTED} for o in g.ops}
    sa, sb, aa, ab = sig(a), sig(b), attrs(a), attrs(b)
    out = [f"node {n}" for n in sorted(set(sa) | set(sb)) if sa.get(n) != sb.get(n)
           or any(aa[n][k] != ab[n][k] for k in set(aa.get(n, {})) & set(ab.get(n, {})))]
    ea = {(x.src, x.dst, x.distance, x.blocking) for x in a.deps}
    eb = {(x.src, x.dst, x.distance, x.blocking) for x in b.deps}
    return out + [f"edge {s}->{t} (distance {k})" for s, t, k, _ in sorted(ea ^ eb)]


class Predictor:
    """Predicted cycles per iteration of a profiled loop under the model or a calibration: twill's
    modulo schedule, realisable by the installed Triton where the kernel IR is at hand, as ``twill
    optimize --swp-only`` solves it (II x the normalisation's cycles per unit). Memoised per costs."""

    def __init__(self, m: Machine, time_limit: float) -> None:
        self.m = m
        self.opts = OptimizeOptions(swp_only=True, emit="triton", time_limit=time_limit)
        self.memo: dict[tuple[str, Any], Prediction] = {}

    def __call__(self, case: Case, cal: Calibration | None) -> Prediction:
        key = (case.source.sha256, (cal.latency, cal.throughput) if cal else None)
        if key not in self.memo:
            self.memo[key] = self.solve(case, cal)
        return self.memo[key]

    def solve(self, case: Case, cal: Calibration | None) -> Prediction:
        costed = annotate_costs(case.graph, self.m, scale=cal.scale if cal else None)
        busy = {u: float(sum(r.length * r.count for o in costed.ops for r in o.rrt if r.unit == u))
                for u in self.m.units}
        scaled, norm = normalize_graph(costed, self.opts.normalize_bound)
        s, _, _ = solve_modulo(scaled, case.kir, self.m, self.opts, lambda _m: None)
        if s.status not in ("optimal", "feasible"):
            return Prediction(None, busy, None)
        cycles = round(s.ii * float(norm["scale"]), 1)
        bound = next((u for u in ASYNC_UNITS if busy.get(u) and cycles <= busy[u] * (1 + BOUND_TOLERANCE)), None)
        return Prediction(cycles, busy, bound)


def fit(cases: list[Case], m: Machine, predict: Predictor) -> Calibration:
    """Latency constants from every measured node, then throughput constants from the profiles whose
    latency-calibrated schedule an asynchronous unit bounds (their measured iteration is its busy time)."""
    data = [x for c in cases for x in samples(c.graph, c.profile, c.source, m)]
    latency, nodes = fit_latency(data)
    base = Calibration(m.name, rates_sha256(m), latency, (), nodes, tuple(c.source for c in cases))
    bounds = []
    for c in cases:
        p = predict(c, base)
        if p.bound_by:
            ops = sum(1 for o in c.graph.ops if any(r.unit == p.bound_by for r in o.rrt) or o.unit == p.bound_by)
            bounds.append(Bound(p.bound_by, c.source, p.busy[p.bound_by], c.measured, ops))
    return replace(base, throughput=fit_throughput(bounds))


def constants_text(cal: Calibration) -> str:
    lines = [f"calibration of {cal.machine} from {len(cal.profiles)} profile(s):"]
    lines += [f"  {s.path} (sha256 {s.sha256[:12]})" for s in cal.profiles]
    lines.append("latency per op class (cycles = model x factor; measured = region median + its share of the waits):")
    lines.append(f"  {'class':<24} {'modelled':>9} {'measured':>9} {'factor':>7} {'nodes':>5} {'residual':>8}")
    lines += [f"  {c.key:<24} {c.modelled:>9.1f} {c.measured:>9.1f} {c.factor:>7.3f} {c.nodes:>5} "
              f"{c.residual:>8.1%}" for c in cal.latency]
    lines.append("throughput per asynchronous unit (busy cycles per iteration = model x factor; from the loops it bounds):")
    lines += [f"  {c.key:<24} {c.modelled:>9.1f} {c.measured:>9.1f} {c.factor:>7.3f} {c.nodes:>5} "
              f"{c.residual:>8.1%}" for c in cal.throughput] or ["  none: no profile's schedule is bound by tc or tma"]
    lines.append("per node (against its most specific class):")
    lines += [f"  {Path(n.source.path).parent.name:<26} {n.node:<18} {n.key:<22} model {n.modelled:>6.0f}  measured "
              f"{n.measured:>6.0f}  fitted {n.fitted:>6.0f}  residual {n.residual:+.1%}" for n in cal.nodes]
    return "\n".join(lines)


def _err(pred: float | None, meas: float | None) -> str:
    return f"{(pred - meas) / meas:+.1%}" if pred and meas else "n/a"


def node_error(case: Case, m: Machine, cal: Calibration | None) -> float:
    """Median over the profile's measured nodes of |cycles - measured| / measured, where measured is
    the region plus its share of the waits and cycles the model's (``cal`` None) or the calibration's."""
    errs = []
    for x in samples(case.graph, case.profile, case.source, m):
        f = cal.scale(case.graph.op(x.node)) if cal else None
        cycles = x.modelled * (f.latency if f else 1.0)
        errs.append(abs(cycles - x.measured) / x.measured)
    return statistics.median(errs) if errs else 0.0


HEAD = (f"  {'profile':<26} {'measured':>8} {'plain':>7} {'model':>7} {'error':>14} {'calibrated':>10} "
        f"{'error':>14}  node error model -> calibrated")


def row(case: Case, m: Machine, cal: Calibration, predict: Predictor) -> str:
    """One profile: measured and plain iteration, the model's and the calibration's predictions with their
    errors against both, and the median per-node error of each."""
    a, b = predict(case, None).cycles, predict(case, cal).cycles
    return (f"  {case.label:<26} {case.measured:>8.0f} {case.plain or 0:>7.0f} {a or 0:>7.0f} "
            f"{_err(a, case.measured):>6} {_err(a, case.plain):>7} {b or 0:>10.0f} {_err(b, case.measured):>6} "
            f"{_err(b, case.plain):>7}  {node_error(case, m, None):.0%} -> {node_error(case, m, cal):.0%}")


def predictions_text(cases: list[Case], checks: list[Case], m: Machine, cal: Calibration, predict: Predictor) -> str:
    lines = ["cycles per iteration: predicted (twill's realisable modulo schedule) against measured "
             "(error = (predicted - measured) / measured, against measured then plain = measured / the profile's "
             "overhead ratio); node error: median over the nodes of |cycles - measured| / measured", HEAD]
    lines += [row(c, m, cal, predict) for c in cases]
    if checks:
        lines.append("  held out (--check, not fitted):")
        lines += [row(c, m, cal, predict) for c in checks]
    return "\n".join(lines)


def leave_one_out_text(cases: list[Case], m: Machine, predict: Predictor) -> str:
    if len(cases) < 2:
        return "leave one out: needs two profiles or more"
    lines = ["leave one out: each profile predicted from a fit on the others (columns as above; ops calibrated: "
             "those a constant of the others' fit applies to)", HEAD.replace("calibrated", "fit on rest")]
    for i, c in enumerate(cases):
        cal = fit(cases[:i] + cases[i + 1:], m, predict)
        used = sum(1 for o in c.graph.ops if cal.scale(o) is not None)
        lines.append(row(c, m, cal, predict) + f"  ({used} of {len(c.graph.ops)} ops calibrated)")
    return "\n".join(lines)


def previous(out: Path, m: Machine, say: Callable[[str], None]) -> Calibration | None:
    """The calibration already at ``out``, whose constants this fit updates; None (a fresh file)
    when there is none or it cannot be updated (another machine's, other rates: it says why)."""
    if not out.is_file():
        return None
    try:
        return read_calibration(out, m)
    except MachineError as e:
        say(f"note: {e}; writing a fresh calibration")
        return None


def write(cal: Calibration, out: Path) -> Path:
    try:
        with WRITING:
            out.parent.mkdir(parents=True, exist_ok=True)
            return atomic_write(out, to_toml(cal))
    except OSError as e:
        raise InputError("cannot write the calibration", where=str(out), found=e.strerror or str(e)) from None
