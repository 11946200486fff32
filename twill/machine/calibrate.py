"""A calibrated machine model: per op-class latency factors and per-unit throughput factors fitted from
measured profiles, each kept with the profiles it came from (``twill/machine/calibration/<machine>.toml``).

What is fitted, and from what:
- latency.<class> (class: kind, dtype and tile shape, e.g. ``dot.f16.128x128x128``, ``sfu.tile``,
  ``reduce.tile``, ``tma_load.32KiB``; each op also falls back to ``dot.f16``, then ``dot``): an op's
  issue-to-result cycles, as the warps that issue it pay them: the node's region median (Proton's record
  cost already subtracted) plus its share of the loop's waits. A ``warp_group_dot_wait`` is the tail of the
  loop's wgmmas, so it is shared among the dots; a ``wait_barrier`` is the wait for TMA data, so it is
  shared among the ops that consume a TMA load; each in proportion to the ops' model cycles. The factor
  multiplies the op's cycles and its reservations on the synchronous units (alu, sfu, lsu).
- throughput.<unit> for the asynchronous units (tc, tma): what a region of an asynchronous op times is
  its issue, not the unit's busy time, which shows only in a loop that the unit bounds: there the
  measured iteration is the busy time. A profile gives a sample where its latency-calibrated modulo
  schedule is bound by the unit (``twill calibrate`` solves it); the factor multiplies the op's
  reservation on that unit, never its latency.

The estimator is the median of the log ratios measured / modelled (the geometric median of the ratios):
the error of a cost model is multiplicative, a class has one to a few nodes, and the record cost
Proton subtracts makes a small op's ratio noisy (a 2-cycle op measured at 7 or 26); the median lets no
one such node move the factor, and least squares would be decided by the largest node. The residual
of a constant is the RMS of (model x factor - measured) / measured over its nodes.
"""
from __future__ import annotations

import json
import math
import os
import statistics
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from twill.errors import MachineError
from twill.graph.model import LoopGraph, Op
from twill.machine.cost import CostScale, op_cost
from twill.machine.model import Machine
from twill.util import sha256

SCHEMA = "twill.calibration/1"
SYNC_UNITS = ("alu", "sfu", "lsu")      # a region of an op on these times the unit's work
ASYNC_UNITS = ("tc", "tma")             # a region times the issue; the busy time shows in the iteration
BOUND_TOLERANCE = 0.02                  # a unit bounds a schedule whose II is within 2% of its busy time
ESTIMATOR = "median of log(measured / modelled) over the class's nodes (geometric median of the ratios)"
CALIBRATION_DIR = Path(__file__).parent / "calibration"


@dataclass(frozen=True)
class Source:
    """A profile file a constant came from: its path (relative to the working folder when inside it)
    and the SHA-256 of its bytes."""

    path: str
    sha256: str

    @staticmethod
    def of(path: str | Path) -> Source:
        p = Path(path)
        rel = os.path.relpath(p.resolve())
        return Source(rel if not rel.startswith("..") else str(p.resolve()), sha256(p.read_bytes()))


@dataclass(frozen=True)
class Sample:
    """One measured node: its classes (most specific first), the model's cycles and the measured
    latency (``region`` plus ``waits``, its share of the loop's waits)."""

    source: Source
    node: str
    keys: tuple[str, ...]
    modelled: float
    region: float
    waits: float = 0.0

    @property
    def measured(self) -> float:
        return max(1.0, self.region + self.waits)   # a region can measure 0 once its record cost is off


@dataclass(frozen=True)
class Bound:
    """A profile whose latency-calibrated schedule the asynchronous ``unit`` bounds: its modelled busy
    time per iteration (``ops`` ops on the unit) against the measured iteration."""

    unit: str
    source: Source
    busy: float
    measured: float
    ops: int


@dataclass(frozen=True)
class Constant:
    """A fitted constant: ``factor`` x the model; the medians of the modelled and measured cycles of
    the ``nodes`` it was fitted on, its residual, and the profiles they came from."""

    key: str
    factor: float
    modelled: float
    measured: float
    nodes: int
    residual: float
    sources: tuple[Source, ...]


@dataclass(frozen=True)
class NodeFit:
    """One node's fit: measured against the model times its most specific class's factor."""

    source: Source
    node: str
    key: str
    modelled: float
    measured: float
    fitted: float

    @property
    def residual(self) -> float:
        return (self.fitted - self.measured) / self.measured


@dataclass(frozen=True)
class Calibration:
    """The fitted constants of one machine model, and what they were fitted from. ``rates_sha256``
    is the hash of the unit capacities and rates the factors multiply: the factors mean nothing
    against other rates."""

    machine: str
    rates_sha256: str
    latency: tuple[Constant, ...] = ()
    throughput: tuple[Constant, ...] = ()
    nodes: tuple[NodeFit, ...] = ()
    profiles: tuple[Source, ...] = ()
    path: str = field(default="", compare=False)     # the file it was read from
    sha256: str = field(default="", compare=False)   # that file's hash

    def latency_of(self, op: Op) -> Constant | None:
        """The most specific latency constant fitted for ``op``'s classes, or None."""
        by = {c.key: c for c in self.latency}
        return next((by[k] for k in op_classes(op) if k in by), None)

    def scale(self, op: Op) -> CostScale | None:
        """How ``annotate_costs`` rescales ``op``: None where no constant applies (the model stands).

        Examples
        --------
        >>> cal = Calibration("h200", "x", latency=(Constant("reduce.tile", 1.5, 160, 240, 1, 0.0, ()),))
        >>> cal.scale(Op("r", "reduce", "alu", shape=(128,), attrs=(("input_elements", 16384),)))
        CostScale(key='reduce.tile', latency=1.5, units=(('alu', 1.5), ('sfu', 1.5), ('lsu', 1.5)))
        """
        c = self.latency_of(op)
        tp = [t for t in self.throughput if t.key == op.unit]
        if c is None and not tp:
            return None
        units = tuple((u, c.factor) for u in SYNC_UNITS) if c else ()
        key = ", ".join(([c.key] if c else []) + [f"throughput.{t.key}" for t in tp])
        return CostScale(key, c.factor if c else 1.0, units + tuple((t.key, t.factor) for t in tp))


def op_classes(op: Op) -> tuple[str, ...]:
    """The calibration classes of ``op``, most specific first: kind, operand dtype and tile shape
    (dot: m x n x k; TMA loads: KiB; the rest: ``tile`` for 2-D tiles, ``row`` for row vectors).

    Examples
    --------
    >>> op_classes(Op("d", "dot", "tc", attrs=(("m", 128), ("n", 256), ("k", 64), ("a_dtype", "f16"))))
    ('dot.f16.128x256x64', 'dot.f16', 'dot')
    """
    a = dict(op.attrs)
    if op.kind == "dot":
        dtype = str(a.get("a_dtype", "f16"))
        return (f"dot.{dtype}.{a.get('m')}x{a.get('n')}x{a.get('k')}", f"dot.{dtype}", "dot")
    if op.kind in ("tma_load", "load", "store", "local_load", "local_store", "local_alloc"):
        return (f"{op.kind}.{int(a.get('bytes', 0)) // 1024}KiB", op.kind)
    elems = int(a.get("input_elements", 0) or a.get("elements", 0) or 0)
    return (f"{op.kind}.{'tile' if elems >= 1024 else 'row'}", op.kind)


def period_of(partition: Mapping[str, Any]) -> float | None:
    """A profiled partition's cycles per iteration (a summary of ``profiling.gluon_trace``): the steady period
    (the median gap between iterations) where the profile has it, else, for profiles made before it was recorded,
    the amortized one (the mean gap, the gaps between tiles spread over the iterations).

    >>> period_of({"period_cycles": 2600.0, "steady_period_cycles": 2500.0}), period_of({"period_cycles": 2600.0})
    (2500.0, 2600.0)
    """
    v = partition.get("steady_period_cycles")
    return v if v is not None else partition.get("period_cycles")


def amortized_period_of(partition: Mapping[str, Any]) -> float | None:
    """A profiled partition's amortized cycles per iteration (the mean gap, the gaps between tiles included)."""
    return partition.get("period_cycles")


def run_period(partition: Mapping[str, Any], overhead: float | None,
               key: Callable[[Mapping[str, Any]], float | None] = period_of) -> float | None:
    """One profile run's cycles per iteration of a partition (``key`` of its summary) over the run's overhead on the
    whole kernel (its instrumented time over the plain kernel's, timed beside it). A run that recorded one tile in K
    reports its recorded loops' cost against the plain tiles' loops as well (``loop_cost``); it is not used here:
    read across programs at one tile a program, it scattered 0.85-1.29 on the FA forward (run 34a), where the
    whole-kernel overhead did not fall with K (run 34b), so it stays the correction.

    >>> run_period({"steady_period_cycles": 2600.0, "loop_cost": 1.3}, 1.04)
    2500.0
    >>> run_period({"period_cycles": 2600.0}, 1.04)
    2500.0
    """
    v = key(partition)
    cost = overhead
    return float(v) / float(cost) if v is not None and cost else None


def rates_sha256(m: Machine) -> str:
    """Hash of what the factors multiply (unit capacities and rates), not of the file's comments."""
    return sha256(json.dumps({"units": m.unit_caps, "rates": m.rate_table}, sort_keys=True))


def _geomedian(ratios: Sequence[float]) -> float:
    return math.exp(statistics.median(math.log(r) for r in ratios))


def _rms(xs: Sequence[float]) -> float:
    return math.sqrt(sum(x * x for x in xs) / len(xs)) if xs else 0.0


def wait_shares(g: LoopGraph, profile: Mapping[str, Any], m: Machine) -> tuple[dict[str, float], float]:
    """Each measured node's share of the loop's waits (see the module's docstring), and the wait
    cycles no node took (a wait kind with no dot or no TMA consumer to go to)."""
    measured = set(profile.get("nodes") or {})
    loads = {o.id for o in g.ops if o.kind == "tma_load"}
    consumers = {d.dst for d in g.deps if d.src in loads and not d.memory}
    groups = {"warp_group_dot_wait": [o for o in g.ops if o.kind == "dot" and o.id in measured],
              "wait_barrier": [o for o in g.ops if o.id in consumers and o.id in measured]}
    shares: dict[str, float] = {}
    left = 0.0
    for name, w in (profile.get("waits") or {}).items():
        kind = name.split(":")[1] if name.count(":") >= 2 else name
        cycles = float(w.get("median_cycles", 0.0))
        ops = [(o.id, op_cost(o, m)[0]) for o in groups.get(kind, [])]
        total = sum(c for _, c in ops)
        if not total:
            left += cycles
            continue
        for n, c in ops:
            shares[n] = shares.get(n, 0.0) + cycles * c / total
    return shares, left


def samples(g: LoopGraph, profile: Mapping[str, Any], source: Source, m: Machine) -> list[Sample]:
    """The measured nodes of ``profile`` (a ``twill.profile/1`` record of ``g``) as fit samples; nodes
    the model gives no cycles (zero) cannot have a factor and are left out."""
    shares, _ = wait_shares(g, profile, m)
    out = []
    for o in g.ops:
        rec = (profile.get("nodes") or {}).get(o.id)
        if rec is None:
            continue
        modelled = op_cost(o, m)[0]
        if modelled > 0:
            out.append(Sample(source, o.id, op_classes(o), float(modelled), float(rec["median_cycles"]),
                              round(shares.get(o.id, 0.0), 1)))
    return out


def fit_latency(data: Sequence[Sample]) -> tuple[tuple[Constant, ...], tuple[NodeFit, ...]]:
    """A latency constant per class that any sample falls in (every level of its classes), and each
    node's fit against its most specific class.

    Examples
    --------
    >>> s = Source("p.json", "0" * 64)
    >>> cs, _ = fit_latency([Sample(s, "a", ("reduce.tile", "reduce"), 160, 240),
    ...                      Sample(s, "b", ("reduce.row", "reduce"), 10, 10)])
    >>> [(c.key, round(c.factor, 3), c.nodes) for c in cs]
    [('reduce', 1.225, 2), ('reduce.row', 1.0, 1), ('reduce.tile', 1.5, 1)]
    """
    members: dict[str, list[Sample]] = {}
    for x in data:
        for k in x.keys:
            members.setdefault(k, []).append(x)
    consts = []
    for key in sorted(members):
        xs = members[key]
        f = _geomedian([x.measured / x.modelled for x in xs])
        consts.append(Constant(key, round(f, 4), round(statistics.median(x.modelled for x in xs), 1),
                               round(statistics.median(x.measured for x in xs), 1), len(xs),
                               round(_rms([(x.modelled * f - x.measured) / x.measured for x in xs]), 4),
                               tuple(dict.fromkeys(x.source for x in xs))))
    by = {c.key: c for c in consts}
    fits = tuple(NodeFit(x.source, x.node, x.keys[0], round(x.modelled, 1), round(x.measured, 1),
                         round(x.modelled * by[x.keys[0]].factor, 1)) for x in data)
    return tuple(consts), fits


def fit_throughput(bounds: Sequence[Bound]) -> tuple[Constant, ...]:
    """A throughput constant per asynchronous unit that bounds at least one profile: the geometric
    median of measured iteration / modelled busy time."""
    out = []
    for unit in sorted({b.unit for b in bounds}):
        bs = [b for b in bounds if b.unit == unit]
        f = _geomedian([b.measured / b.busy for b in bs])
        out.append(Constant(unit, round(f, 4), round(statistics.median(b.busy for b in bs), 1),
                            round(statistics.median(b.measured for b in bs), 1), sum(b.ops for b in bs),
                            round(_rms([(b.busy * f - b.measured) / b.measured for b in bs]), 4),
                            tuple(dict.fromkeys(b.source for b in bs))))
    return tuple(out)


def merged(old: Calibration | None, new: Calibration) -> Calibration:
    """``new`` with the constants of ``old`` that it did not refit (their own provenance kept)."""
    if old is None or old.rates_sha256 != new.rates_sha256:
        return new
    lat = {c.key: c for c in old.latency} | {c.key: c for c in new.latency}
    tp = {c.key: c for c in old.throughput} | {c.key: c for c in new.throughput}
    refit = {c.key for c in new.latency}
    nodes = tuple(n for n in old.nodes if n.key not in refit) + new.nodes
    used = {s for c in (*lat.values(), *tp.values()) for s in c.sources}
    return Calibration(new.machine, new.rates_sha256, tuple(lat[k] for k in sorted(lat)),
                       tuple(tp[k] for k in sorted(tp)), nodes,
                       tuple(s for s in dict.fromkeys(old.profiles + new.profiles) if s in used))


def _q(s: str) -> str:
    return json.dumps(s)     # a JSON string is a TOML basic string


def _sources(xs: Sequence[Source]) -> str:
    return "[" + ", ".join(f"{{path = {_q(x.path)}, sha256 = {_q(x.sha256)}}}" for x in xs) + "]"


def _constant(section: str, c: Constant) -> list[str]:
    return [f"[{section}.{_q(c.key)}]", f"factor = {c.factor}", f"modelled = {round(c.modelled, 1)}",
            f"measured = {round(c.measured, 1)}", f"nodes = {c.nodes}", f"residual = {c.residual}",
            f"profiles = {_sources(c.sources)}", ""]


HEADER = """# twill calibration of the {machine} machine model, written by `twill calibrate` (twill/machine/calibrate.py);
# used by `twill optimize --calibrated` only. latency.<class>: an op's cycles = model x factor, measured = the
# node's region median + its share of the loop's waits. throughput.<unit>: an asynchronous unit's busy time =
# model x factor, from the loops the unit bounds. factor: the estimator below; modelled, measured: medians
# (cycles) of the nodes fitted; residual: RMS of (model x factor - measured) / measured over them; profiles:
# the files (and their SHA-256) the nodes were measured in. [[nodes]]: every node fitted, against its class.
"""


def to_toml(cal: Calibration) -> str:
    """The calibration file's text (``read_calibration`` reads it back to an equal ``Calibration``)."""
    out = [HEADER.format(machine=cal.machine).rstrip("\n"),
           f"schema = {_q(SCHEMA)}", f"machine = {_q(cal.machine)}", f"rates_sha256 = {_q(cal.rates_sha256)}",
           f"estimator = {_q(ESTIMATOR)}", ""]
    for src in cal.profiles:
        out += ["[[profiles]]", f"path = {_q(src.path)}", f"sha256 = {_q(src.sha256)}", ""]
    for c in cal.latency:
        out += _constant("latency", c)
    for c in cal.throughput:
        out += _constant("throughput", c)
    for n in cal.nodes:
        out += ["[[nodes]]", f"profile = {_q(n.source.path)}", f"profile_sha256 = {_q(n.source.sha256)}",
                f"node = {_q(n.node)}", f"class = {_q(n.key)}", f"modelled = {n.modelled}",
                f"measured = {n.measured}", f"fitted = {n.fitted}", f"residual = {round(n.residual, 4)}", ""]
    return "\n".join(out)


def _read_constants(table: Mapping[str, Any]) -> tuple[Constant, ...]:
    return tuple(Constant(k, float(v["factor"]), float(v["modelled"]), float(v["measured"]), int(v["nodes"]),
                          float(v["residual"]), tuple(Source(str(s["path"]), str(s["sha256"])) for s in v["profiles"]))
                 for k, v in sorted(table.items()))


def read_calibration(path: str | Path, m: Machine) -> Calibration:
    """The calibration file at ``path`` for machine ``m``; refused (one ``MachineError``) when it is
    malformed, of another machine, or fitted against other rates than ``m``'s."""
    p = Path(path)
    hint = f"run `twill calibrate PROFILE.json ... --arch {m.name}`"
    try:
        text = p.read_text()
        d = tomllib.loads(text)
        if d.get("schema") != SCHEMA:
            raise MachineError("not a twill calibration", where=str(p), expected=SCHEMA, found=repr(d.get("schema")))
        cal = Calibration(
            str(d["machine"]), str(d["rates_sha256"]), _read_constants(d.get("latency", {})),
            _read_constants(d.get("throughput", {})),
            tuple(NodeFit(Source(str(n["profile"]), str(n["profile_sha256"])), str(n["node"]), str(n["class"]),
                          float(n["modelled"]), float(n["measured"]), float(n["fitted"])) for n in d.get("nodes", [])),
            tuple(Source(str(s["path"]), str(s["sha256"])) for s in d.get("profiles", [])), str(p), sha256(text))
    except FileNotFoundError:
        raise MachineError("no calibration for this machine", where=str(p), expected="a calibration file",
                           found="none", hint=hint) from None
    except (OSError, KeyError, ValueError, TypeError, tomllib.TOMLDecodeError) as e:
        raise MachineError("malformed calibration", where=str(p), found=f"{type(e).__name__}: {e}", hint=hint) from None
    if cal.machine != m.name:
        raise MachineError("calibration of another machine", where=str(p), expected=m.name, found=cal.machine)
    if cal.rates_sha256 != rates_sha256(m):
        raise MachineError("calibration fitted against other machine rates", where=str(p),
                           expected=f"rates sha256 {rates_sha256(m)[:12]}", found=cal.rates_sha256[:12], hint=hint)
    return cal


def calibration_path(machine: str) -> Path:
    """Where the calibration of ``machine`` lives: ``twill/machine/calibration/<machine>.toml``."""
    return CALIBRATION_DIR / f"{machine}.toml"


def load_calibration(m: Machine, path: str | Path | None = None) -> Calibration:
    """The calibration of ``m`` (its file in ``twill/machine/calibration/``, or ``path``)."""
    return read_calibration(path or calibration_path(m.name), m)
