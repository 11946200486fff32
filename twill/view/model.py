"""The view model: what the page draws, gathered from the schedule, graph, profile and validation dicts."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

# One palette for the whole page. Compute warp groups take the blues/oranges/purples; the
# variable-latency (producer) group is green, as in the paper's Figure 9.
WG_PALETTE = ("#4C78A8", "#F58518", "#E45756", "#72B7B2", "#EECA3B", "#B279A2", "#FF9DA6", "#9D755D")
VL_COLOUR = "#54A24B"
NO_COLOUR = "#8d99ae"
UNIT_COLOUR = {"tc": "#E377A8", "sfu": "#4C78A8", "alu": "#9C9EDE", "tma": "#54A24B", "lsu": "#72B7B2"}
UNIT_ORDER = ("tma", "lsu", "tc", "sfu", "alu")
MEMORIES = ("registers", "smem", "tmem")
MEMORY_TITLE = {"registers": "Registers", "smem": "Shared memory", "tmem": "Tensor memory"}


@dataclass(frozen=True)
class ViewNode:
    """One op as the page shows it: schedule-unit cost and start, real cycles, warp group, IR."""

    id: str
    kind: str
    unit: str
    cost: int                                   # schedule units
    cycles: float | None                        # machine cycles (model or profile), when known
    start: int | None
    wg: int | None
    rrt: tuple[tuple[str, int, int, int], ...]  # (unit, offset, length, count) in schedule units
    ir: tuple[str, ...] = ()
    ops: tuple[str, ...] = ()
    line: int | None = None
    file: str | None = None
    regs: int = 0
    smem: int = 0
    tmem: int = 0
    variable_latency: bool = False
    cost_source: str | None = None
    measured: tuple[float, float | None, float | None, int | None] | None = None  # median, p10, p90, count


@dataclass(frozen=True)
class ViewEdge:
    src: str
    dst: str
    delay: int | None
    distance: int
    blocking: bool
    cross: bool


@dataclass(frozen=True)
class PageData:
    """Everything the sections draw; ``scheduled`` is False when the schedule has no start times."""

    name: str
    arch: str
    ii: int
    length: int
    stages: int
    scale: float                                # machine cycles per schedule unit
    status: str
    scheduled: bool
    nodes: tuple[ViewNode, ...]
    edges: tuple[ViewEdge, ...]
    units: tuple[tuple[str, int], ...]          # (unit, capacity) of the units the loop uses
    idle_units: tuple[str, ...]                 # the machine's units the loop never reserves
    groups: tuple[int, ...]
    vl_group: int | None
    schedule: dict[str, Any]
    profile: dict[str, Any] | None
    validation: dict[str, Any] | None

    def node(self, nid: str) -> ViewNode:
        return next(n for n in self.nodes if n.id == nid)

    def colour(self, n: ViewNode) -> str:
        """Warp-group colour when there is a warp assignment, else the unit's colour."""
        if self.groups:
            return wg_colour(n.wg, self.groups, self.vl_group)
        return UNIT_COLOUR.get(n.unit, NO_COLOUR)

    def wg_label(self, g: int | None) -> str:
        if g is None:
            return ""
        return f"WG{g} · loads" if g == self.vl_group else f"WG{g}"


def wg_colour(g: int | None, groups: tuple[int, ...], vl_group: int | None) -> str:
    if g is None:
        return NO_COLOUR
    if g == vl_group:
        return VL_COLOUR
    compute = [x for x in groups if x != vl_group]
    i = compute.index(g) if g in compute else g
    return WG_PALETTE[i % len(WG_PALETTE)]


def to_int(x: Any, default: int = 0) -> int:
    try:
        return int(x)
    except (TypeError, ValueError):
        return default


def to_float(x: Any) -> float | None:
    try:
        return None if x is None else float(x)
    except (TypeError, ValueError):
        return None


def as_dict(x: Any) -> dict[str, Any]:
    """``x`` when it is a dict, else an empty one: the inputs are loosely structured."""
    return x if isinstance(x, dict) else {}


# ----------------------------------------------------------------------------------------------
# Costs: schedule units, and real cycles where the inputs tell them
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Costing:
    """How the inputs' costs read: ``graph`` is the one drawn, ``real`` the costed graph's nodes by id;
    ``convert`` when ``graph`` is in cycles and needs converting to schedule units."""

    graph: dict[str, Any]
    real: dict[str, dict[str, Any]]
    norm: dict[str, Any]
    scale: float
    convert: bool
    real_is_cycles: bool

    def units(self, cycles: Any) -> int:
        """Schedule units for a cycle count, through the normalisation's own table when it has one."""
        c = to_float(cycles)
        if c is None:
            return 0
        table = self.norm.get("values") or {}
        for k in (str(int(c)) if c == int(c) else str(c), str(c)):
            if k in table:
                return to_int(table[k])
        return int(round(c / self.scale)) if self.scale > 0 else int(c)


def _costing(s: dict[str, Any], graph: dict[str, Any] | None) -> _Costing:
    """The schedule's own (normalised) graph is ``s["graph"]`` when embedded, and ``graph`` then
    supplies real cycle counts; without an embedded graph, ``graph`` is both, converted to schedule
    units through ``s["normalization"]``."""
    norm = s.get("normalization") or {}
    scale = to_float(norm.get("scale")) or to_float(s.get("time_unit_cycles")) or 1.0
    own = s.get("graph") if isinstance(s.get("graph"), dict) else None
    real = {n["id"]: n for n in (graph or {}).get("nodes", []) if isinstance(n, dict) and "id" in n}
    # ``graph`` holds real cycles when it is not the normalised graph again (same costs everywhere).
    own_cost = {str(n.get("id")): n.get("cycles") for n in (own or {}).get("nodes", []) if isinstance(n, dict)}
    real_is_cycles = own is not None and bool(real) and (scale == 1.0 or any(
        real[k].get("cycles") != own_cost.get(k) for k in real))
    return _Costing(graph=own or graph or {"nodes": [], "edges": []}, real=real, norm=norm, scale=scale,
                    convert=own is None and scale != 1.0, real_is_cycles=real_is_cycles)


def _cost_rrt_cycles(n: dict[str, Any], cycles_extra: dict[str, Any],
                     c: _Costing) -> tuple[int, tuple[tuple[str, int, int, int], ...], float | None]:
    """A node's cost and reservations in schedule units, and its real cycles when known."""
    nid, raw_cost = str(n["id"]), n.get("cycles")
    if c.convert:
        cost = c.units(raw_cost)
        rrt = tuple((r["unit"], c.units(r.get("offset", 0)), max(1, c.units(r.get("length", 0)))
                     if to_int(r.get("length")) else 0, to_int(r.get("count", 1), 1)) for r in n.get("rrt", []))
    else:
        cost = to_int(raw_cost)
        rrt = tuple((r["unit"], to_int(r.get("offset")), to_int(r.get("length")), to_int(r.get("count", 1), 1))
                    for r in n.get("rrt", []))
    # Real cycles: the schedule's own record, else the costed graph (when it is not the
    # normalised one), else the costs themselves when one unit is one cycle.
    cyc = to_float(cycles_extra.get(nid))
    if cyc is None and c.real_is_cycles and nid in c.real:
        cyc = to_float(c.real[nid].get("cycles"))
    if cyc is None and (c.convert or c.scale == 1.0):
        cyc = to_float(raw_cost)
    if cyc is None and raw_cost is not None:
        cyc = cost * c.scale          # only the normalised cost is known: its cycles, approximately
    return cost, rrt, cyc


# ----------------------------------------------------------------------------------------------
# Nodes, edges, units
# ----------------------------------------------------------------------------------------------
def _measured_nodes(profile: dict[str, Any] | None, validation: dict[str, Any] | None) -> dict[str, Any]:
    """Measured medians per node: the profile's, else those a validation record carries."""
    return (profile or {}).get("nodes") or {
        k: {"median_cycles": v.get("measured_median_cycles")} for k, v in ((validation or {}).get("nodes") or {}).items()
        if isinstance(v, dict)}


def _measured(m: Any) -> tuple[float, float | None, float | None, int | None] | None:
    if not isinstance(m, dict) or to_float(m.get("median_cycles", m.get("median"))) is None:
        return None
    return (float(m.get("median_cycles", m.get("median"))), to_float(m.get("p10_cycles", m.get("p10"))),
            to_float(m.get("p90_cycles", m.get("p90"))), m.get("count"))


def _view_node(n: dict[str, Any], s: dict[str, Any], c: _Costing, start: dict[str, int], warp: dict[str, int],
               measured: dict[str, Any]) -> ViewNode:
    nid = str(n["id"])
    cost, rrt, cyc = _cost_rrt_cycles(n, s.get("cycles") or {}, c)
    src = c.real.get(nid, n)
    return ViewNode(
        id=nid, kind=str(n.get("kind", "?")), unit=str(n.get("unit", "?")), cost=cost, cycles=cyc,
        start=start.get(nid), wg=warp.get(nid), rrt=rrt, ir=tuple(src.get("ir") or n.get("ir") or ()),
        ops=tuple(src.get("ops") or n.get("ops") or ()), line=src.get("line", n.get("line")),
        file=src.get("file", n.get("file")), regs=to_int(src.get("regs", n.get("regs"))),
        smem=to_int(src.get("smem", n.get("smem"))), tmem=to_int(src.get("tmem", n.get("tmem"))),
        variable_latency=bool(n.get("variable_latency")), cost_source=src.get("cost_source") or n.get("cost_source"),
        measured=_measured(measured.get(nid)))


def _view_edges(s: dict[str, Any], c: _Costing, warp: dict[str, int], ids: set[str]) -> tuple[ViewEdge, ...]:
    """The edges between drawn nodes; an edge crosses warp groups when the schedule says so or its
    ends sit in different groups."""
    cross = {(str(x.get("src")), str(x.get("dst"))) for x in s.get("cross_warp") or [] if isinstance(x, dict)}
    edges = []
    for e in c.graph.get("edges", []):
        a, b = str(e["src"]), str(e["dst"])
        if a not in ids or b not in ids:
            continue
        delay = e.get("delay")
        if c.convert and delay is not None:
            delay = c.units(delay)
        is_cross = (a, b) in cross or (a in warp and b in warp and warp[a] != warp[b])
        edges.append(ViewEdge(a, b, None if delay is None else to_int(delay), to_int(e.get("distance")),
                              bool(e.get("blocking")), is_cross))
    return tuple(edges)


def _units(s: dict[str, Any], nodes: list[ViewNode]) -> tuple[tuple[tuple[str, int], ...], tuple[str, ...]]:
    """(unit, capacity) of the units the loop reserves, and the machine's units it never does."""
    caps = {str(k): to_int(v) for k, v in (s.get("capacity") or {}).items()}
    used = {r[0] for n in nodes for r in n.rrt if r[2] > 0}
    order = {u: i for i, u in enumerate(UNIT_ORDER)}
    units = tuple(sorted(((u, caps.get(u, 1)) for u in used), key=lambda kv: (order.get(kv[0], 99), kv[0])))
    idle = tuple(sorted((u for u in caps if u not in used), key=lambda u: (order.get(u, 99), u)))
    return units, idle


def page_data(schedule: dict[str, Any], graph: dict[str, Any] | None, profile: dict[str, Any] | None = None,
              validation: dict[str, Any] | None = None) -> PageData:
    """Gather what the page draws; missing parts of ``schedule`` are tolerated (they are left out).

    The schedule's own (normalised) graph is ``schedule["graph"]`` when embedded, and ``graph`` then
    supplies real cycle counts; without an embedded graph, ``graph`` is both, converted to schedule
    units through ``schedule["normalization"]``.
    """
    s = schedule
    c = _costing(s, graph)
    start = {str(k): to_int(v) for k, v in (s.get("start") or {}).items()}
    warp = {str(k): to_int(v) for k, v in (s.get("warp") or {}).items()}
    measured = _measured_nodes(profile, validation)
    nodes = [_view_node(n, s, c, start, warp, measured) for n in c.graph.get("nodes", [])]
    units, idle = _units(s, nodes)
    vl = (s.get("warp_groups") or {}).get("variable_latency")
    if vl is None:
        vl = (s.get("joint") or {}).get("vl_group")
    ii, length = to_int(s.get("ii")), to_int(s.get("length"))
    meta = c.graph.get("meta") or {}
    return PageData(
        name=str(s.get("kernel") or meta.get("kernel") or c.graph.get("name") or "loop"),
        arch=str(s.get("arch") or s.get("machine") or meta.get("arch") or ""),
        ii=ii, length=length, stages=to_int(s.get("stages")) or (max(1, math.ceil(length / ii)) if ii > 0 else 0),
        scale=c.scale, status=str(s.get("status", "?")), scheduled=ii > 0 and bool(start),
        nodes=tuple(nodes), edges=_view_edges(s, c, warp, {n.id for n in nodes}), units=units, idle_units=idle,
        groups=tuple(sorted(set(warp.values()))), vl_group=None if vl is None else to_int(vl), schedule=s,
        profile=profile, validation=validation)


# ----------------------------------------------------------------------------------------------
# Memory pressure, and the measured and predicted iteration
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class MemorySeries:
    label: str
    colour: str
    points: tuple[tuple[float, float], ...]    # (t, bytes), a step function


@dataclass(frozen=True)
class MemoryChart:
    title: str
    series: tuple[MemorySeries, ...]
    limit: float | None
    note: str


def memory_points(v: Any) -> tuple[tuple[float, float], ...]:
    """Per-slot lists ``[b0, b1, ...]`` or ``[[t, bytes], ...]`` as (t, bytes) steps."""
    if not isinstance(v, list) or not v:
        return ()
    if all(isinstance(x, (int, float)) for x in v):
        return tuple((float(i), float(b)) for i, b in enumerate(v))
    return tuple((float(p[0]), float(p[1])) for p in v if isinstance(p, (list, tuple)) and len(p) == 2)


def _per_group_chart(pd: PageData, live: dict[str, Any], mem: dict[str, Any]) -> MemoryChart | None:
    per = as_dict(live.get("registers_per_group"))
    per_slot = as_dict(per.get("per_slot"))
    limit = to_float(per.get("limit"))
    alt = as_dict(mem.get("registers"))
    if not per_slot and isinstance(alt.get("pressure"), dict):
        per_slot, limit = alt["pressure"], to_float(alt.get("per_wg_limit"))
    if not per_slot:
        return None
    series = [MemorySeries(pd.wg_label(to_int(g)), wg_colour(to_int(g), pd.groups, pd.vl_group), memory_points(v))
              for g, v in sorted(per_slot.items(), key=lambda kv: to_int(kv[0]))]
    return MemoryChart("Registers per warp group", tuple(x for x in series if x.points), limit, "per warp group")


def memory_charts(pd: PageData) -> list[MemoryChart]:
    """One chart per memory, and one of registers per warp group, from the schedule's ``liveness``
    or ``memory`` record."""
    live, mem = as_dict(pd.schedule.get("liveness")), as_dict(pd.schedule.get("memory"))
    charts = []
    for m in MEMORIES:
        rec, alt = as_dict(live.get(m)), as_dict(mem.get(m))
        pts = memory_points(rec.get("per_slot")) or (
            memory_points(alt.get("pressure")) if not isinstance(alt.get("pressure"), dict) else ())
        limit = to_float(rec.get("capacity")) or to_float(alt.get("limit")) or to_float((mem.get("capacity") or {}).get(m))
        if pts and (any(b for _, b in pts) or limit):
            charts.append(MemoryChart(MEMORY_TITLE[m], (MemorySeries("whole CTA", "#3d5a98", pts),), limit, "per CTA"))
    per_group = _per_group_chart(pd, live, mem)
    return charts + ([per_group] if per_group else [])


def measured_iteration(pd: PageData) -> float | None:
    """Cycles of one iteration as measured: the validation record's, else the profile's."""
    v, p = pd.validation or {}, pd.profile or {}
    it = as_dict(p.get("iteration"))
    return to_float(v.get("measured_iteration_cycles")) or to_float(p.get("iteration_cycles")) or \
        to_float(it.get("median_cycles"))


def predicted_iteration(pd: PageData) -> float | None:
    """Cycles of one iteration as predicted: the validation record's, else the schedule's, else II in cycles."""
    v = pd.validation or {}
    pred = pd.schedule.get("predicted") or {}
    return to_float(v.get("predicted_iteration_cycles")) or to_float(pred.get("iteration_cycles")) or \
        (pd.ii * pd.scale if pd.ii else None)
