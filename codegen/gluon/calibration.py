"""The Gluon replay calibrated from per-partition Proton profiles of the kernels twill generated.

The replay (``codegen.gluon.replay``) runs a generated kernel's partitions together with a cost per op. With
the model's costs it predicts the FA forward at ~2190 cycles per iteration where the H200 measures 2700; the
op costs the profile measures explain ~90 % of the period, the rest is how long the tensor core takes when two
consumers feed it. A calibration fits, from profiles whose kernel source is kept beside them:

- ``node[class]``: a factor on the model's cycles of every op of that class (kind and tile shape: ``sfu.64x128``,
  ``reduce.64``, ``convert.64x128``, ...): the geometric median over the class's measured regions of measured /
  model (a region's net cycles per iteration, Proton's record cost already subtracted). The error of a cost
  model is multiplicative, and a small op's net cycles are noisy, so the median, not least squares;
- ``issue[class]`` for a dot class (``dot.64x128x128``): the cycles its partition spends issuing it, the
  median of its measured regions (a wgmma's region is its issue, not the tensor core's work); a region below its run's
  resolution (``Profiled.unresolved``) gives none, and a class without one issues in ``default_issue`` (the machine's);
- ``tensor[class]``: a factor on the model's tensor-core cycles of that dot class. No region times the tensor
  core, so each profile gives one factor, the one whose replay (the other costs calibrated) matches the
  measured period (bisection); a class's factor is the geometric median over the profiles that have it;
- ``arrive``: cycles per mbarrier arrive (Gluon 3.6 lowers it to a 128-thread ``bar.sync`` and one thread's
  arrive): the median over the profiles' timed arrives (a region sums profile times the statements between the
  regions, ``profiling.gluon_sums.with_gaps``: its ``gap`` regions that arrive, cycles over arrives), else ``ARRIVE``,
  an estimate read from the SASS;
- ``atomic``: cycles per atomic call of a partition the graph does not hold (a reducer's row of ``gl.atomic_add``):
  the median over the profiles' regions of such lines of cycles per iteration over calls per iteration (the calls
  counted in the replay's recording, ``atomic_calls``), else ``ATOMIC``.

``leave_one_out`` fits without each profile in turn and predicts it: the figure to quote, since a profile's
own tensor factor makes its in-sample prediction exact by construction.

The Gluon route of ``twill optimize --calibrated`` reads the machine's file (``twill/machine/calibration/
<machine>-gluon.json``, ``load_for``) and costs its row-split graphs with it (``Calibration.scale``: an op's
cycles times its class's factor, a dot's tensor-core reservation too) before it solves, and replays each
candidate's kernel with the fitted issue and arrive costs (``Calibration.replay_costs``). Imports no solver,
needs no GPU.
"""
from __future__ import annotations

import hashlib
import json
import math
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from codegen.gluon.host import device_part
from codegen.gluon.protocol import ProtocolError, Unsimulated
from codegen.gluon.replay import Costs, atomic_calls, model_costs, replay
from twill.errors import MachineError, ProfileError
from twill.graph.model import Op
from twill.machine.calibrate import CALIBRATION_DIR, Source, period_of, run_period
from twill.machine.cost import CostScale
from twill.machine.model import Machine

SCHEMA = "twill.gluon-calibration/1"
ARRIVE = 40.0          # cycles per arrive: the bar.sync of 4 warps plus one SYNCS.ARRIVE (SASS), an estimate
# cycles per reducer row (one warp's REDG.E.ADD.F32x4 of 128 floats and its LDS.128), where no profile times one:
# run 208 (H100, region sums), the FA backward's reducer 1480.7 cycles an iteration over its 32 rows (46.3 a row) and its
# producer 2034.6 over 29.3 (69.4), the median of the two as ``fit`` takes it
ATOMIC = 57.8
TENSOR_RANGE = (0.5, 4.0)


@dataclass(frozen=True)
class Profiled:
    """One profile and the kernel it measured: the generated source, its gluon.json (graph, time unit,
    signature) and the profile JSON of ``bench/gluon_profile.py``, with the paths they were read from."""

    label: str
    source: str
    gluon: Mapping[str, Any]
    profile: Mapping[str, Any]
    paths: tuple[str, ...] = ()

    @staticmethod
    def read(label: str, kernel_dir: str | Path, profile: str | Path) -> "Profiled":
        d = Path(kernel_dir)
        return Profiled(label, (d / "kernel_gluon.py").read_text(), json.loads((d / "gluon.json").read_text()),
                        json.loads(Path(profile).read_text()),
                        (str(d / "kernel_gluon.py"), str(d / "gluon.json"), str(profile)))

    @property
    def unit(self) -> float:
        return float(self.gluon["time_unit_cycles"])

    @property
    def model_graph(self) -> dict[str, Any]:
        """The kernel's graph with the machine model's cycles (in units of ``unit``): a kernel solved with a
        calibration (``--calibrated``) carries the calibrated cycles, the op's model cycles in its attrs."""
        g = dict(self.gluon["graph"])
        nodes = []
        for n in g["nodes"]:
            mc = dict(n.get("attrs") or {}).get("model_cycles")
            nodes.append(dict(n, cycles=float(mc) / self.unit) if mc is not None and n["kind"] != "tma_load" else n)
        g["nodes"] = nodes
        return g

    @property
    def signature(self) -> dict[str, str]:
        return dict(self.gluon["gluon"]["kernel"]["signature"])

    def measured_period(self, key: Callable[[Mapping[str, Any]], float | None] = period_of) -> float:
        """The plain kernel's cycles per iteration: each subset run's period (``key`` of its summary: the
        steady period where the profile has it; ``amortized`` for the mean gap), its slowest instrumented
        partition's, over that run's overhead (``run_period``: its instrumented time over the plain kernel's,
        timed beside it), the median over the runs. The combined period (each partition's from the runs that timed it)
        carries the overhead of whichever partition's records cost most: 3330 cycles for the FA forward's
        producer in run 11, where the runs' corrected periods have a median of 2534. A profile without
        per-run overheads (run 6) gives its combined period."""
        est = []
        for r in self.profile.get("runs", []):
            parts = (r.get("summary") or {}).get("partitions") or {}
            periods = [run_period(v, r.get("overhead"), key) for v in parts.values()]
            periods = [x for x in periods if x is not None]   # a partition whose regions recur in the iteration: none
            if periods:
                est.append(max(periods))
        if est:
            return statistics.median(est)
        combined = [float(v["period_cycles"]) for v in ((self.profile.get("combined") or {}).get("partitions") or {})
                    .values() if v.get("period_cycles") is not None]
        if combined:
            return max(combined)
        loops = [float(v["cycles_per_iteration"]) for v in ((self.profile.get("loop_run_all") or
                 self.profile.get("loop_run") or {}).get("periods") or {}).values() if v.get("cycles_per_iteration")]
        if loops:        # no region's starts gave a period (each CTA timed it once): the loop run's, amortized
            return max(loops)
        raise ProfileError("the profile gives the loop no period", where=self.label,
                           expected="a once-per-iteration region timed over two or more iterations of a CTA, or a "
                           "loop run", found="every CTA's anchor region timed once, and no loop run")

    def regions(self) -> dict[str, float]:
        """Node id -> its measured net cycles per iteration (the combined runs), at least 1: a region can net
        0 once Proton's record cost is subtracted (an op below the record's resolution)."""
        out = {}
        for r in self.profile["combined"]["regions"].values():
            if r.get("node") is not None:
                out[r["node"]] = max(1.0, float(r["net_cycles_per_iteration"]))
        return out

    def unresolved(self) -> set[str]:
        """The nodes whose region nets 0 or less once the record cost is subtracted: below their run's resolution.
        For an ALU op that says it is small (``regions`` gives it 1 cycle); for a wgmma it says nothing of its issue,
        which costs at least its instructions: the FA backward of run 6 timed its wgmmas' regions at 383-897 cycles
        and its empty region at 1344, and the 1 cycle they were clamped to priced those wgmmas' issue at 1 cycle."""
        return {r["node"] for r in self.profile["combined"]["regions"].values()
                if r.get("node") is not None and float(r["net_cycles_per_iteration"]) <= 0}

    def arrive_costs(self) -> list[float]:
        """Cycles per mbarrier arrive, one figure per region of the statements between the regions that arrive (a
        sums profile's ``gap`` regions, ``profiling.gluon_sums.with_gaps``, with the arrives they hold): its cycles
        per iteration over its arrives per iteration. [] for a Proton profile (it leaves those statements untimed)."""
        return [float(r["cycles_per_iteration"]) / int(r["arrives"])
                for r in self.profile["combined"]["regions"].values()
                if r.get("kind") == "gap" and int(r.get("arrives") or 0) > 0 and r.get("cycles_per_iteration")]

    def atomic_costs(self) -> list[float]:
        """Cycles per atomic call, one figure per region of a partition's lines whose node the graph does not hold
        (a reducer's rows) and that call atomics (``atomic_calls``): its cycles per iteration over its calls per
        iteration."""
        try:
            calls = atomic_calls(self.source, self.signature, frozenset(n["id"] for n in self.gluon["graph"]["nodes"]))
        except (ProtocolError, Unsimulated):     # a kernel the replay cannot run: no figure (nor a replay of it)
            return []
        out = []
        for r in self.profile["combined"]["regions"].values():
            k = (r.get("partition"), r.get("node"))
            if r.get("kind") == "node" and calls.get(k) and r.get("cycles_per_iteration"):
                out.append(float(r["net_cycles_per_iteration"] if r.get("net_cycles_per_iteration") is not None
                                 else r["cycles_per_iteration"]) / calls[k])
        return out

    def sources(self) -> list[dict[str, str]]:
        return [{"path": p, "sha256": hashlib.sha256(Path(p).read_bytes()).hexdigest()} for p in self.paths]


def op_class(node: Mapping[str, Any] | Op) -> str:
    """An op's class (a graph file's node or an ``Op``): its kind and tile shape; a dot's by m x n x k."""
    if isinstance(node, Op):
        node = {"kind": node.kind, "shape": list(node.shape), "attrs": dict(node.attrs)}
    a = dict(node.get("attrs") or {})
    if node["kind"] == "dot" and all(x in a for x in ("m", "n", "k")):
        return f"dot.{a['m']}x{a['n']}x{a['k']}"
    return f"{node['kind']}." + "x".join(str(s) for s in node.get("shape") or []) if node.get("shape") else node["kind"]


def _gmedian(xs: Sequence[float]) -> float:
    return math.exp(statistics.median(math.log(max(x, 1e-6)) for x in xs))


@dataclass
class Calibration:
    """Fitted costs for the replay, by op class, and the profiles they came from."""

    node: dict[str, float] = field(default_factory=dict)
    issue: dict[str, float] = field(default_factory=dict)
    tensor: dict[str, float] = field(default_factory=dict)
    arrive: float = ARRIVE
    samples: dict[str, int] = field(default_factory=dict)
    fitted_from: list[dict[str, Any]] = field(default_factory=list)
    smem_rate: float = 0.0               # the shared-memory port of the replay, bytes a cycle (0: not modelled)
    atomic: float = ATOMIC
    default_issue: float = 0.0           # a dot class no profile timed issues in this many cycles (the machine's)

    def costs(self, p: Profiled, tensor: Mapping[str, float] | None = None, load_wait: float = 1.0) -> Costs:
        """The replay's costs of ``p``'s kernel: the model's, each op's scaled by its class's fitted factor
        (a class not fitted keeps the model's cost: factor 1; a dot class without a measured issue issues in
        ``default_issue`` cycles); a pointer load its partition issues, the model's issue (none) where its class is not
        fitted, else its fitted cost (its measured region: its issue), and its latency times ``load_wait``
        (``model_costs``); a reducer's atomic row ``atomic`` cycles."""
        base = model_costs(p.model_graph, p.unit, 0.0, self.smem_rate, load_wait)
        fitted = {n["id"] for n in p.gluon["graph"]["nodes"] if op_class(n) in self.node}
        tf = dict(self.tensor if tensor is None else tensor)
        node, tens, iss = dict(base.node), dict(base.tensor), dict(base.issue)
        for n in p.gluon["graph"]["nodes"]:
            c = op_class(n)
            if n["id"] in tens:
                tens[n["id"]] *= tf.get(c, 1.0)
                iss[n["id"]] = self.issue.get(c, self.default_issue)
            elif n["id"] in node:
                node[n["id"]] *= self.node.get(c, 1.0)
        return Costs(node, tens, iss, base.load, self.arrive, 0.0, source="calibrated", smem_rate=self.smem_rate,
                     ready=base.ready, issued={n: node[n] if n in fitted else base.issued[n] for n in base.ready},
                     atomic=self.atomic)

    def predict(self, p: Profiled, load_wait: float = 1.0) -> float:
        return replay(p.source, p.signature, self.costs(p, load_wait=load_wait)).iteration()

    def scale(self, op: Op) -> CostScale | None:
        """``annotate_costs``' rescaling of ``op`` (None: the model's cost): a dot's cycles and tensor-core
        reservation times its class's tensor factor; another op's cycles times its class's factor, its
        reservations the model's (a region's time on its partition includes waiting for units the other
        partitions share: a latency, not more work for the unit)."""
        c = op_class(op)
        if op.kind == "dot":
            f = self.tensor.get(c)
            return CostScale(f"gluon.tensor.{c}", f, (("tc", f),)) if f else None
        f = self.node.get(c)
        return CostScale(f"gluon.node.{c}", f) if f else None

    def unfitted(self, ops: Sequence[Op]) -> list[str]:
        """The dot classes of ``ops`` this calibration has no tensor factor for: their cost is the model's, which
        the profiles found 0.89-1.78x off for the classes fitted (``bench/results/gluon/calibration.txt``)."""
        return sorted({op_class(o) for o in ops if o.kind == "dot"} - set(self.tensor))

    def replay_costs(self, graph: Mapping[str, Any], unit: float, default_issue: float,
                     load_wait: float = 1.0) -> Costs:
        """The replay's costs of a kernel solved from a graph this calibration costed (``graph`` as gluon.json
        holds it, in units of ``unit`` cycles): its cycles as they are, each dot's issue its class's fitted
        issue (``default_issue`` where the class has none), the fitted arrive."""
        base = model_costs(graph, unit, default_issue, self.smem_rate, load_wait)
        issue = dict(base.issue)
        for n in graph["nodes"]:
            if n["id"] in issue:
                issue[n["id"]] = self.issue.get(op_class(n), default_issue)
        return Costs(base.node, base.tensor, issue, base.load, self.arrive, 0.0, source="calibrated", ready=base.ready,
                     issued=base.issued, smem_rate=self.smem_rate, atomic=self.atomic)

    def to_dict(self) -> dict[str, Any]:
        return {"schema": SCHEMA, "node": self.node, "issue": self.issue, "tensor": self.tensor,
                "arrive": self.arrive, "atomic": self.atomic, "default_issue": self.default_issue,
                "smem_rate": self.smem_rate, "samples": self.samples,
                "fitted_from": self.fitted_from,
                "estimator": "node: geometric median of measured / model over the class's regions; issue: median "
                             "of the dot class's regions; tensor: per profile, the factor whose replay matches "
                             "the measured period, geometric median over profiles; arrive: median over the sums "
                             "profiles' gap regions of cycles per arrive (the estimate ARRIVE where no profile has "
                             "one); atomic: median over the regions of a reducer's rows of cycles per atomic call "
                             "(the estimate ATOMIC where none)"}

    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> "Calibration":
        return Calibration(dict(d["node"]), dict(d["issue"]), dict(d["tensor"]), float(d["arrive"]),
                           dict(d.get("samples", {})), list(d.get("fitted_from", [])), float(d.get("smem_rate", 0.0)),
                           float(d.get("atomic", ATOMIC)), float(d.get("default_issue", 0.0)))


def gluon_calibration_path(machine: str) -> Path:
    """Where the Gluon calibration of ``machine`` lives (beside the Triton route's ``<machine>.toml``)."""
    return CALIBRATION_DIR / f"{machine}-gluon.json"


def load_for(m: Machine, path: str | Path | None = None) -> tuple[Calibration, str] | None:
    """The Gluon calibration of ``m`` and its path (``path``, or the machine's file); None when the machine
    has no file; a file that is not a calibration is refused in one line."""
    f = Path(path) if path else gluon_calibration_path(m.name)
    if not f.is_file():
        if path:
            raise MachineError("no Gluon calibration file", where=str(f), expected="a file `bench/gluon_calibrate.py` "
                               "wrote", found="nothing there")
        return None
    try:
        d = json.loads(f.read_text())
        if d.get("schema") != SCHEMA:
            raise ValueError(f"schema {d.get('schema')!r}")
        return Calibration.from_dict(d), Source.of(f).path
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        raise MachineError("not a Gluon calibration", where=str(f), expected=f"JSON of schema {SCHEMA}",
                           found=str(e)[:120]) from None


def _tensor_factor(p: Profiled, cal: Calibration) -> float | None:
    """The factor on every dot's tensor-core cycles that makes ``p``'s replay match its measured period."""
    target = p.measured_period()
    lo, hi = TENSOR_RANGE

    def at(f: float) -> float:
        classes = {op_class(n) for n in p.gluon["graph"]["nodes"] if n["kind"] == "dot"}
        return replay(p.source, p.signature, cal.costs(p, {c: f for c in classes})).iteration()
    if at(hi) < target or at(lo) > target:
        return None
    for _ in range(24):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if at(mid) < target else (lo, mid)
    return round((lo + hi) / 2, 4)


def fit(profiled: Sequence[Profiled], smem_rate: float = 0.0, default_issue: float = 0.0) -> Calibration:
    """The calibration of ``profiled`` (see the module's docstring), the replay's shared-memory port at ``smem_rate``
    bytes a cycle (0: not modelled), a dot class no profile timed issued in ``default_issue`` cycles."""
    ratios: dict[str, list[float]] = {}
    issues: dict[str, list[float]] = {}
    for p in profiled:
        nodes = {n["id"]: n for n in p.model_graph["nodes"]}
        below = p.unresolved()
        for nid, measured in p.regions().items():
            n = nodes.get(nid)
            if n is None or n["kind"] == "tma_load":
                continue
            c = op_class(n)
            if n["kind"] == "dot":
                if nid not in below:      # an unresolved wgmma's issue is unknown: the class's others', or the default
                    issues.setdefault(c, []).append(measured)
            elif float(n.get("cycles") or 0) > 0:
                ratios.setdefault(c, []).append(measured / (float(n["cycles"]) * p.unit))
    cal = Calibration({c: round(_gmedian(v), 4) for c, v in ratios.items()},
                      {c: round(statistics.median(v), 1) for c, v in issues.items()}, smem_rate=smem_rate,
                      default_issue=default_issue)
    cal.samples = {c: len(v) for c, v in list(ratios.items()) + list(issues.items())}
    arrives = [x for p in profiled for x in p.arrive_costs()]
    if arrives:     # before the tensor factors: each profile's replay prices its arrives so
        cal.arrive = round(statistics.median(arrives), 1)
        cal.samples["arrive"] = len(arrives)
    atomics = [x for p in profiled for x in p.atomic_costs()]
    if atomics:
        cal.atomic = round(statistics.median(atomics), 1)
        cal.samples["atomic"] = len(atomics)
    per: dict[str, list[float]] = {}
    for p in profiled:
        f = _tensor_factor(p, cal)
        entry = {"label": p.label, "measured_period": p.measured_period(), "tensor_factor": f,
                 "sources": p.sources() if p.paths else []}
        cal.fitted_from.append(entry)
        if f is not None:
            for n in p.gluon["graph"]["nodes"]:
                if n["kind"] == "dot":
                    per.setdefault(op_class(n), []).append(f)
    cal.tensor = {c: round(_gmedian(v), 4) for c, v in per.items()}
    return cal


def held_out(cal: Calibration, source: str, root: Path,
             schedule: Mapping[str, Any] | None = None) -> tuple[Calibration, bool]:
    """``cal`` for predicting the kernel of ``source``, and whether the prediction is held out. Where ``cal`` was
    fitted on profiles of that very kernel (its device code among the profiles' sources, or its ``schedule``, the
    gluon.json, among theirs: the kernel regenerated from it by a later generator), their own tensor-core factors
    make the prediction match by construction: the calibration is fitted again without them, from the other
    profiles (read under ``root``, the paths ``fit`` recorded: source, gluon.json, profile); where those are no
    longer there, ``cal`` as it is, in sample."""
    digest, kernel = hashlib.sha256(source.encode()).hexdigest(), device_part(source)

    def same(s: dict[str, Any]) -> bool:     # the same device code (a launcher regenerated since changes nothing)
        try:
            if s["path"].endswith("gluon.json"):
                return schedule is not None and json.loads((root / s["path"]).read_text()) == schedule
            return s["path"].endswith("kernel_gluon.py") and device_part((root / s["path"]).read_text()) == kernel
        except OSError:
            return s["sha256"] == digest
    own = [f for f in cal.fitted_from if any(same(s) for s in f.get("sources", []))]
    if not own:
        return cal, True
    refit = refitted(cal, {f["label"] for f in own}, root)
    return (refit, True) if refit is not None else (cal, False)


def refitted(cal: Calibration, leave: set[str], root: Path) -> Calibration | None:
    """``cal`` fitted again without the profiles labelled ``leave`` (read under ``root``, the paths ``fit``
    recorded: source, gluon.json, profile); None where those files are no longer there."""
    try:
        return fit([Profiled.read(f["label"], root / Path(f["sources"][0]["path"]).parent, root / f["sources"][2]["path"])
                    for f in cal.fitted_from if f["label"] not in leave], cal.smem_rate, cal.default_issue)
    except (OSError, IndexError, KeyError, ValueError):
        return None


def profile_of(cal: Calibration, profile: Mapping[str, Any], root: Path) -> str | None:
    """The label of the profile ``cal`` was fitted on that is ``profile`` (a committed profile validated again
    offline), or None (a new run's)."""
    for f in cal.fitted_from:
        try:
            if json.loads((root / f["sources"][2]["path"]).read_text()) == profile:
                return str(f["label"])
        except (OSError, IndexError, KeyError, ValueError):
            continue
    return None


def same_kernel(p: Profiled, q: Profiled) -> bool:
    """Whether two profiles measured one kernel: the same device code (a launcher regenerated since changes
    nothing) or the same schedule (gluon.json: the kernel regenerated from it by a later generator)."""
    return device_part(p.source) == device_part(q.source) or p.gluon == q.gluon


def leave_one_out(profiled: Sequence[Profiled], smem_rate: float = 0.0, default_issue: float = 0.0,
                  whole_kernel: bool = False) -> list[dict[str, Any]]:
    """Each profile predicted by the calibration fitted on the others: label, measured period, the model's
    replay, the held-out prediction and its error (None where the others share no dot class with it). With
    ``whole_kernel`` the others exclude every profile of the same kernel (``same_kernel``: its other runs, on
    either GPU), as ``held_out`` does for ``twill validate``: what the calibration predicts of a kernel it never
    saw; without, what it predicts of a new run of a kernel it has seen run."""
    out = []
    for i, p in enumerate(profiled):
        others = [q for j, q in enumerate(profiled) if j != i and not (whole_kernel and same_kernel(p, q))]
        cal = fit(others, smem_rate, default_issue)
        dots = {op_class(n) for n in p.gluon["graph"]["nodes"] if n["kind"] == "dot"}
        measured = p.measured_period()
        model = replay(p.source, p.signature, model_costs(p.model_graph, p.unit, 0.0, smem_rate)).iteration()
        pred = cal.predict(p) if dots <= set(cal.tensor) else None
        out.append({"label": p.label, "measured": round(measured, 1), "model": round(model, 1),
                    "held_out": None if pred is None else round(pred, 1),
                    "error": None if pred is None else round(pred / measured - 1, 4),
                    "fitted_on": [q.label for q in others]})
    return out
