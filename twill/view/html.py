"""The browser view of a schedule: one self-contained HTML page (inline SVG, CSS and a small hover
script, nothing from the network) drawn from a ``twill.schedule/1`` dict and its ``twill.graph/1`` graph."""
from __future__ import annotations

import html
import json
import math
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

# One palette for the whole page. Compute warp groups take the blues/oranges/purples; the
# variable-latency (producer) group is green, as in the paper's Figure 9.
WG_PALETTE = ("#4C78A8", "#F58518", "#E45756", "#72B7B2", "#EECA3B", "#B279A2", "#FF9DA6", "#9D755D")
VL_COLOUR = "#54A24B"
UNIT_COLOUR = {"tc": "#E377A8", "sfu": "#4C78A8", "alu": "#9C9EDE", "tma": "#54A24B", "lsu": "#72B7B2"}
UNIT_ORDER = ("tma", "lsu", "tc", "sfu", "alu")
MEMORIES = ("registers", "smem", "tmem")
MEMORY_TITLE = {"registers": "Registers", "smem": "Shared memory", "tmem": "Tensor memory"}

PLOT_W = 960          # px of the time axis in the reservation table and the timeline
LEFT = 128            # px for row labels
NODE_W, NODE_H, LAYER_GAP, NODE_GAP = 158, 48, 66, 44

_ASSETS = Path(__file__).resolve().parent


# ----------------------------------------------------------------------------------------------
# The data the page draws, gathered once from the (loosely structured) input dicts.
# ----------------------------------------------------------------------------------------------
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
        return UNIT_COLOUR.get(n.unit, "#8d99ae")

    def wg_label(self, g: int | None) -> str:
        if g is None:
            return ""
        return f"WG{g} · loads" if g == self.vl_group else f"WG{g}"


def wg_colour(g: int | None, groups: tuple[int, ...], vl_group: int | None) -> str:
    if g is None:
        return "#8d99ae"
    if g == vl_group:
        return VL_COLOUR
    compute = [x for x in groups if x != vl_group]
    i = compute.index(g) if g in compute else g
    return WG_PALETTE[i % len(WG_PALETTE)]


def _int(x: Any, default: int = 0) -> int:
    try:
        return int(x)
    except (TypeError, ValueError):
        return default


def _float(x: Any) -> float | None:
    try:
        return None if x is None else float(x)
    except (TypeError, ValueError):
        return None


def _units_of(cycles: Any, norm: dict[str, Any], scale: float) -> int:
    """Schedule units for a cycle count, through the normalisation's own table when it has one."""
    c = _float(cycles)
    if c is None:
        return 0
    table = norm.get("values") or {}
    for k in (str(int(c)) if c == int(c) else str(c), str(c)):
        if k in table:
            return _int(table[k])
    return int(round(c / scale)) if scale > 0 else int(c)


def page_data(schedule: dict[str, Any], graph: dict[str, Any] | None, profile: dict[str, Any] | None = None,
              validation: dict[str, Any] | None = None) -> PageData:
    """Gather what the page draws; missing parts of ``schedule`` are tolerated (they are left out).

    The schedule's own (normalised) graph is ``schedule["graph"]`` when embedded, and ``graph`` then
    supplies real cycle counts; without an embedded graph, ``graph`` is both, converted to schedule
    units through ``schedule["normalization"]``.
    """
    s = schedule
    norm = s.get("normalization") or {}
    scale = _float(norm.get("scale")) or _float(s.get("time_unit_cycles")) or 1.0
    own = s.get("graph") if isinstance(s.get("graph"), dict) else None
    sg = own or graph or {"nodes": [], "edges": []}
    real = {n["id"]: n for n in (graph or {}).get("nodes", []) if isinstance(n, dict) and "id" in n}
    convert = own is None and scale != 1.0
    # ``graph`` holds real cycles when it is not the normalised graph again (same costs everywhere).
    own_cost = {str(n.get("id")): n.get("cycles") for n in (own or {}).get("nodes", []) if isinstance(n, dict)}
    real_is_cycles = own is not None and bool(real) and (scale == 1.0 or any(
        real[k].get("cycles") != own_cost.get(k) for k in real))
    start = {str(k): _int(v) for k, v in (s.get("start") or {}).items()}
    warp = {str(k): _int(v) for k, v in (s.get("warp") or {}).items()}
    cycles_extra = s.get("cycles") or {}
    # Measured medians: the profile's, else those a validation record carries.
    prof_nodes = (profile or {}).get("nodes") or {
        k: {"median_cycles": v.get("measured_median_cycles")} for k, v in ((validation or {}).get("nodes") or {}).items()
        if isinstance(v, dict)}
    nodes = []
    for n in sg.get("nodes", []):
        nid = str(n["id"])
        raw_cost = n.get("cycles")
        if convert:
            cost = _units_of(raw_cost, norm, scale)
            rrt = tuple((r["unit"], _units_of(r.get("offset", 0), norm, scale), max(1, _units_of(r.get("length", 0), norm, scale))
                         if _int(r.get("length")) else 0, _int(r.get("count", 1), 1)) for r in n.get("rrt", []))
        else:
            cost = _int(raw_cost)
            rrt = tuple((r["unit"], _int(r.get("offset")), _int(r.get("length")), _int(r.get("count", 1), 1))
                        for r in n.get("rrt", []))
        # Real cycles: the schedule's own record, else the costed graph (when it is not the
        # normalised one), else the costs themselves when one unit is one cycle.
        cyc = _float(cycles_extra.get(nid))
        if cyc is None and real_is_cycles and nid in real:
            cyc = _float(real[nid].get("cycles"))
        if cyc is None and (convert or scale == 1.0):
            cyc = _float(raw_cost)
        if cyc is None and raw_cost is not None:
            cyc = cost * scale          # only the normalised cost is known: its cycles, approximately
        src = real.get(nid, n)
        m = prof_nodes.get(nid)
        measured = None
        if isinstance(m, dict) and _float(m.get("median_cycles", m.get("median"))) is not None:
            measured = (float(m.get("median_cycles", m.get("median"))), _float(m.get("p10_cycles", m.get("p10"))),
                        _float(m.get("p90_cycles", m.get("p90"))), m.get("count"))
        nodes.append(ViewNode(
            id=nid, kind=str(n.get("kind", "?")), unit=str(n.get("unit", "?")), cost=cost, cycles=cyc,
            start=start.get(nid), wg=warp.get(nid), rrt=rrt, ir=tuple(src.get("ir") or n.get("ir") or ()),
            ops=tuple(src.get("ops") or n.get("ops") or ()), line=src.get("line", n.get("line")),
            file=src.get("file", n.get("file")), regs=_int(src.get("regs", n.get("regs"))),
            smem=_int(src.get("smem", n.get("smem"))), tmem=_int(src.get("tmem", n.get("tmem"))),
            variable_latency=bool(n.get("variable_latency")), cost_source=src.get("cost_source") or n.get("cost_source"),
            measured=measured))
    ids = {n.id for n in nodes}
    cross = {(str(c.get("src")), str(c.get("dst"))) for c in s.get("cross_warp") or [] if isinstance(c, dict)}
    edges = []
    for e in sg.get("edges", []):
        a, b = str(e["src"]), str(e["dst"])
        if a not in ids or b not in ids:
            continue
        delay = e.get("delay")
        if convert and delay is not None:
            delay = _units_of(delay, norm, scale)
        is_cross = (a, b) in cross or (a in warp and b in warp and warp[a] != warp[b])
        edges.append(ViewEdge(a, b, None if delay is None else _int(delay), _int(e.get("distance")),
                              bool(e.get("blocking")), is_cross))
    caps = {str(k): _int(v) for k, v in (s.get("capacity") or {}).items()}
    used = {r[0] for n in nodes for r in n.rrt if r[2] > 0}
    order = {u: i for i, u in enumerate(UNIT_ORDER)}
    units = tuple(sorted(((u, caps.get(u, 1)) for u in used), key=lambda kv: (order.get(kv[0], 99), kv[0])))
    idle = tuple(sorted((u for u in caps if u not in used), key=lambda u: (order.get(u, 99), u)))
    groups = tuple(sorted(set(warp.values())))
    vl = (s.get("warp_groups") or {}).get("variable_latency")
    if vl is None:
        vl = (s.get("joint") or {}).get("vl_group")
    ii, length = _int(s.get("ii")), _int(s.get("length"))
    meta = sg.get("meta") or {}
    return PageData(
        name=str(s.get("kernel") or meta.get("kernel") or sg.get("name") or "loop"),
        arch=str(s.get("arch") or s.get("machine") or meta.get("arch") or ""),
        ii=ii, length=length, stages=_int(s.get("stages")) or (max(1, math.ceil(length / ii)) if ii > 0 else 0),
        scale=scale, status=str(s.get("status", "?")), scheduled=ii > 0 and bool(start),
        nodes=tuple(nodes), edges=tuple(edges), units=units, idle_units=idle, groups=groups,
        vl_group=None if vl is None else _int(vl), schedule=s, profile=profile, validation=validation)


# ----------------------------------------------------------------------------------------------
# Small formatting and SVG helpers
# ----------------------------------------------------------------------------------------------
def _e(x: Any) -> str:
    return html.escape(str(x), quote=True)


def _num(x: Any, digits: int = 3) -> str:
    f = _float(x)
    if f is None:
        return "–"
    if f == int(f) and abs(f) < 1e15:
        return f"{int(f):,}"
    return f"{f:,.{max(0, digits - 1 - int(math.floor(math.log10(abs(f)))) if f else 0)}f}" if abs(f) < 10 ** digits \
        else f"{f:,.0f}"


def _bytes(b: Any) -> str:
    f = _float(b)
    if f is None:
        return "–"
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if abs(f) >= size:
            v = f / size
            return f"{v:.0f} {unit}" if v == int(v) or v >= 100 else f"{v:.1f} {unit}"
    return f"{f:.0f} B"


def _seconds(x: Any) -> str:
    f = _float(x)
    if f is None:
        return "–"
    return f"{f * 1000:.0f} ms" if f < 1 else f"{f:.2f} s" if f < 100 else f"{f:.0f} s"


def tint(colour: str, amount: float) -> str:
    """``colour`` mixed with white (``amount`` = 1 is white)."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    mix = [round(c + (255 - c) * amount) for c in (r, g, b)]
    return "#" + "".join(f"{c:02x}" for c in mix)


def _nice_step(span: float, target: int = 10) -> float:
    if span <= 0:
        return 1.0
    raw = span / target
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * mag >= raw:
            return max(1.0, m * mag)
    return max(1.0, 10 * mag)


def _axis(x0: float, px: float, t_end: float, y: float, top: float, title: str) -> str:
    """Ticks along a time axis in schedule units, with faint grid lines up to ``top``."""
    step = _nice_step(t_end)
    out = ['<g class="axis">']
    t = 0.0
    while t <= t_end + 1e-9:
        x = x0 + t * px
        out.append(f'<line x1="{x:.1f}" y1="{top:.1f}" x2="{x:.1f}" y2="{y:.1f}"/>'
                   f'<text class="tick" x="{x:.1f}" y="{y + 13:.1f}" text-anchor="middle">{_num(t)}</text>')
        t += step
    out.append(f'<text class="title" x="{x0 + t_end * px:.1f}" y="{y + 28:.1f}" text-anchor="end">{_e(title)}</text></g>')
    return "".join(out)


def _lanes(spans: list[tuple[float, float, Any]]) -> list[tuple[int, float, float, Any]]:
    """Greedy interval partitioning: (lane, start, end, payload) with no overlap inside a lane."""
    ends: list[float] = []
    out = []
    for a, b, p in sorted(spans, key=lambda s: (s[0], s[1])):
        for i, e in enumerate(ends):
            if e <= a + 1e-9:
                ends[i] = b
                out.append((i, a, b, p))
                break
        else:
            ends.append(b)
            out.append((len(ends) - 1, a, b, p))
    return out


def _fits(text: str, width: float, size: float = 10.5) -> bool:
    return len(text) * size * 0.64 + 9 <= width


def _unit_title(pd: PageData) -> str:
    if pd.scale != 1.0:
        return f"schedule units (1 unit ≈ {_num(pd.scale)} cycles)"
    return "cycles"


# ----------------------------------------------------------------------------------------------
# Dependence graph
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GraphLayout:
    """Where the graph's nodes go: ``layer`` per node; ``rows`` per layer, in order, holding node ids
    and the virtual points (``"\\0<edge>:<k>"``) that long forward edges pass through; ``x`` the
    centre of every item; ``chains`` the items each long forward edge passes through, by edge index."""

    layer: dict[str, int]
    rows: dict[int, list[str]]
    x: dict[str, float]
    chains: dict[int, list[str]]


def _virtual(item: str) -> bool:
    return item.startswith("\0")


def _layers(ids: list[str], es: list[tuple[str, str, int]]) -> dict[str, int]:
    """Longest path over distance-0 edges; a node with no predecessor sits just above its first
    consumer (loads next to the GEMM they feed, not at the top of a long edge)."""
    idx = {v: i for i, v in enumerate(ids)}
    fwd = [(a, b) for a, b, d in es if d == 0 and a != b]
    succ: dict[str, list[str]] = {v: [] for v in ids}
    indeg = {v: 0 for v in ids}
    for a, b in fwd:
        succ[a].append(b)
        indeg[b] += 1
    ready, topo, seen = sorted((v for v in ids if indeg[v] == 0), key=idx.__getitem__), [], set()
    while len(topo) < len(ids):
        if not ready:            # a zero-distance cycle (an invalid graph): break it at program order
            ready = [min((v for v in ids if v not in seen), key=idx.__getitem__)]
        v = ready.pop(0)
        if v in seen:
            continue
        seen.add(v)
        topo.append(v)
        for w in succ[v]:
            indeg[w] -= 1
            if indeg[w] == 0 and w not in seen:
                ready.append(w)
        ready.sort(key=idx.__getitem__)
    rank = {v: i for i, v in enumerate(topo)}
    layer = {v: 0 for v in ids}
    for v in topo:
        for w in succ[v]:
            if rank[w] > rank[v]:
                layer[w] = max(layer[w], layer[v] + 1)
    preds = {b for a, b in fwd}
    for v in ids:
        if v not in preds and succ[v]:
            layer[v] = max(layer[v], min(layer[w] for w in succ[v]) - 1)
    return layer


def _crossings(rows: dict[int, list[str]], links: list[tuple[str, str]], layer: dict[str, int]) -> int:
    pos = {v: i for r in rows.values() for i, v in enumerate(r)}
    by: dict[int, list[tuple[int, int]]] = {}
    for a, b in links:
        by.setdefault(layer[a], []).append((pos[a], pos[b]))
    return sum(1 for ps in by.values() for i, (a, b) in enumerate(ps) for c, d in ps[i + 1:] if (a - c) * (b - d) < 0)


def graph_layout(ids: list[str], edges: Iterable[ViewEdge | tuple[str, str, int]]) -> GraphLayout:
    """A layered (Sugiyama-style) layout: layers from the DAG of distance-0 edges, virtual points on
    long edges, barycentre ordering kept at its fewest crossings, then x placed near neighbours."""
    es = [(e.src, e.dst, e.distance) if isinstance(e, ViewEdge) else tuple(e) for e in edges]
    layer = _layers(ids, es)
    rows: dict[int, list[str]] = {}
    for v in ids:
        rows.setdefault(layer[v], []).append(v)
    links: list[tuple[str, str]] = []          # between items of adjacent layers, upper first
    chains: dict[int, list[str]] = {}
    item_layer = dict(layer)
    for i, (a, b, d) in enumerate(es):
        if a == b or layer[b] <= layer[a]:
            continue
        chain = [a]
        for k, l in enumerate(range(layer[a] + 1, layer[b])):
            v = f"\0{i}:{k}"
            rows[l].append(v)
            item_layer[v] = l
            chain.append(v)
        chain.append(b)
        chains[i] = chain[1:-1]
        links += list(zip(chain, chain[1:]))
    up: dict[str, list[str]] = {v: [] for v in item_layer}
    down: dict[str, list[str]] = {v: [] for v in item_layer}
    for a, b in links:
        down[a].append(b)
        up[b].append(a)
    best, best_rows = _crossings(rows, links, item_layer), {k: list(r) for k, r in rows.items()}
    for sweep in range(8):
        downward = sweep % 2 == 0
        for k in sorted(rows) if downward else sorted(rows, reverse=True):
            pos = {v: i for r in rows.values() for i, v in enumerate(r)}
            old = {v: i for i, v in enumerate(rows[k])}

            def key(v: str) -> tuple[float, int]:
                nb = up[v] if downward else down[v]
                return (sum(pos[w] for w in nb) / len(nb) if nb else old[v], old[v])
            rows[k].sort(key=key)
        c = _crossings(rows, links, item_layer)
        if c < best:
            best, best_rows = c, {k: list(r) for k, r in rows.items()}
    rows = best_rows
    # x: pack each layer, then pull every item toward its neighbours' mean, keeping the gaps.
    width = {v: 18.0 if _virtual(v) else float(NODE_W) for v in item_layer}

    def gap(a: str, b: str) -> float:
        return (width[a] + width[b]) / 2 + (12.0 if _virtual(a) or _virtual(b) else NODE_GAP)
    x: dict[str, float] = {}
    for r in rows.values():
        cur = 0.0
        for i, v in enumerate(r):
            cur = cur + gap(r[i - 1], v) if i else 0.0
            x[v] = cur
        shift = cur / 2
        for v in r:
            x[v] -= shift
    for it in range(10):
        for k in sorted(rows) if it % 2 == 0 else sorted(rows, reverse=True):
            r = rows[k]
            want = [(sum(x[w] for w in up[v] + down[v]) / len(up[v] + down[v])) if up[v] + down[v] else x[v] for v in r]
            place = list(want)
            for i in range(1, len(r)):
                place[i] = max(place[i], place[i - 1] + gap(r[i - 1], r[i]))
            drift = sum(p - w for p, w in zip(place, want)) / len(r)
            place = [p - drift for p in place]
            for i in range(1, len(r)):
                place[i] = max(place[i], place[i - 1] + gap(r[i - 1], r[i]))
            for v, p in zip(r, place):
                x[v] = p
    return GraphLayout(layer=layer, rows=rows, x=x, chains=chains)


def layer_layout(ids: list[str], edges: Iterable[ViewEdge | tuple[str, str, int]]) -> dict[str, tuple[int, int]]:
    """(layer, position among the layer's nodes) per node of :func:`graph_layout`.

    Examples
    --------
    >>> layer_layout(["S", "P", "O"], [("S", "P", 0), ("P", "O", 0), ("O", "O", 1)])
    {'S': (0, 0), 'P': (1, 0), 'O': (2, 0)}
    """
    lay = graph_layout(ids, edges)
    out = {}
    for k, r in lay.rows.items():
        for i, v in enumerate(w for w in r if not _virtual(w)):
            out[v] = (k, i)
    return {v: out[v] for v in ids}


def _bezier_mid(p0: tuple[float, float], p1: tuple[float, float], p2: tuple[float, float],
                p3: tuple[float, float]) -> tuple[float, float]:
    return ((p0[0] + 3 * p1[0] + 3 * p2[0] + p3[0]) / 8, (p0[1] + 3 * p1[1] + 3 * p2[1] + p3[1]) / 8)


def _free_spot(x: float, y: float, w: float, h: float, taken: list[tuple[float, float, float, float]]) -> tuple[float, float]:
    """The nearest place to (x, y) where a w x h label overlaps no box in ``taken`` (which it joins)."""
    for dx, dy in ((0, 0), (0, -11), (0, 11), (-w * .6, 0), (w * .6, 0), (0, -20), (0, 20), (-w, -11), (w, 11),
                   (-w, 11), (w, -11), (0, -30), (0, 30)):
        box = (x + dx - w / 2, y + dy - h / 2, x + dx + w / 2, y + dy + h / 2)
        if all(box[2] <= a or box[0] >= c or box[3] <= b or box[1] >= d for a, b, c, d in taken):
            taken.append(box)
            return x + dx, y + dy
    return x, y


def graph_svg(pd: PageData) -> str:
    """The dependence graph, layered top to bottom; loop-carried edges curve back up the side."""
    ids = [n.id for n in pd.nodes]
    if not ids:
        return '<p class="note">The graph has no nodes.</p>'
    lay = graph_layout(ids, pd.edges)
    carried = [e for e in pd.edges if e.src != e.dst and (e.distance or lay.layer[e.dst] <= lay.layer[e.src])]
    margin = 60 + 16 * min(len(carried), 8)
    lo = min(lay.x[v] - (NODE_W / 2 if not _virtual(v) else 9) for v in lay.x)
    hi = max(lay.x[v] + (NODE_W / 2 if not _virtual(v) else 9) for v in lay.x)
    selfloops = any(e.src == e.dst for e in pd.edges)
    width = hi - lo + 2 * margin + (30 if selfloops else 0)
    nl = max(lay.rows) + 1
    height = 30 + nl * NODE_H + (nl - 1) * LAYER_GAP + 30
    X = {v: x - lo + margin for v, x in lay.x.items()}      # item centres
    Y = {k: 30 + k * (NODE_H + LAYER_GAP) for k in lay.rows}  # layer tops
    centre = (min(X[v] for v in ids) + max(X[v] for v in ids)) / 2
    # Spread each node's ports along its bottom (out) and top (in) edges, ordered by the next item.
    fwd = {i: e for i, e in enumerate(pd.edges) if e.src != e.dst and lay.layer[e.dst] > lay.layer[e.src]}
    real_rows = {k: [v for v in r if not _virtual(v)] for k, r in lay.rows.items()}

    def nxt(i: int) -> str:
        return (lay.chains.get(i) or [fwd[i].dst])[0]

    def prv(i: int) -> str:
        return (lay.chains.get(i) or [fwd[i].src])[-1]
    out_port: dict[int, float] = {}
    in_port: dict[int, float] = {}
    for v in ids:
        outs = sorted((i for i, e in fwd.items() if e.src == v), key=lambda i: X[nxt(i)])
        ins = sorted((i for i, e in fwd.items() if e.dst == v), key=lambda i: X[prv(i)])
        for group, ports in ((outs, out_port), (ins, in_port)):
            for k, i in enumerate(group):
                ports[i] = X[v] - NODE_W / 2 + NODE_W * (0.15 + 0.7 * (k + 1) / (len(group) + 1))
    parts = [f'<svg class="graph" width="100%" style="max-width:{width:.0f}px" viewBox="0 0 {width:.0f} {height}" '
             f'xmlns="http://www.w3.org/2000/svg" role="img" aria-label="dependence graph">',
             '<defs>'
             + "".join(f'<marker id="arr-{k}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6.5" markerHeight="6.5" '
                       f'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{c}"/></marker>'
                       for k, c in (("plain", "#8b93a5"), ("blocking", "#c0392b"), ("crosswarp", "#7b4fb0")))
             + '<marker id="bar" viewBox="0 0 4 12" refX="2" refY="6" markerWidth="3" markerHeight="9" orient="auto">'
               '<rect x="0" y="0" width="4" height="12" fill="#c0392b"/></marker></defs>']
    edge_svg, label_svg = [], []
    side_count = {"l": 0, "r": 0}
    taken = [(X[v] - NODE_W / 2, Y[lay.layer[v]], X[v] + NODE_W / 2, Y[lay.layer[v]] + NODE_H) for v in ids]
    for i, e in enumerate(pd.edges):
        x1, y1 = X[e.src] - NODE_W / 2, Y[lay.layer[e.src]]
        x2, y2 = X[e.dst] - NODE_W / 2, Y[lay.layer[e.dst]]
        kind = "crosswarp" if e.cross else "blocking" if e.blocking else "plain"
        cls = "edge" + (" carried" if e.distance else "") + (" blocking" if e.blocking else "") + \
              (" crosswarp" if e.cross else "")
        if e.src == e.dst:
            xr = x1 + NODE_W
            p0, p1, p2, p3 = (xr, y1 + 12), (xr + 34, y1 - 4), (xr + 34, y1 + NODE_H + 4), (xr, y1 + NODE_H - 12)
            d = f"M{p0[0]:.1f},{p0[1]:.1f} C{p1[0]:.1f},{p1[1]:.1f} {p2[0]:.1f},{p2[1]:.1f} {p3[0]:.1f},{p3[1]:.1f}"
            mx, my = _bezier_mid(p0, p1, p2, p3)
            mx += 12
        elif i in fwd:
            # Through the virtual points: vertical inside a layer, an S-curve between layers.
            pts = [(out_port[i], y1 + NODE_H)]
            for v in lay.chains.get(i, []):
                top = Y[next(k for k, r in lay.rows.items() if v in r)]
                pts += [(X[v], top), (X[v], top + NODE_H)]
            pts.append((in_port[i], y2))
            segs = []
            for k in range(0, len(pts) - 1):
                (ax, ay), (bx, by) = pts[k], pts[k + 1]
                if k % 2 == 1:         # inside a layer
                    segs.append(f"L{bx:.1f},{by:.1f}")
                else:
                    dy = max(24.0, (by - ay) * 0.5)
                    segs.append(f"C{ax:.1f},{ay + dy:.1f} {bx:.1f},{by - dy:.1f} {bx:.1f},{by:.1f}")
            d = f"M{pts[0][0]:.1f},{pts[0][1]:.1f} " + " ".join(segs)
            # label on the last gap, just above the consumer, where edges fan in least
            (ax, ay), (bx, by) = pts[-2], pts[-1]
            dy = max(24.0, (by - ay) * 0.5)
            mx, my = _bezier_mid((ax, ay), (ax, ay + dy), (bx, by - dy), (bx, by))
        elif lay.layer[e.src] - lay.layer[e.dst] == 1:
            # Back edge to the layer just above: from the top of one box to the bottom of the other.
            p0, p3 = (x1 + NODE_W * 0.88, y1), (x2 + NODE_W * 0.88, y2 + NODE_H)
            dy = (p0[1] - p3[1]) * 0.5
            p1, p2 = (p0[0], p0[1] - dy), (p3[0], p3[1] + dy)
            d = f"M{p0[0]:.1f},{p0[1]:.1f} C{p1[0]:.1f},{p1[1]:.1f} {p2[0]:.1f},{p2[1]:.1f} {p3[0]:.1f},{p3[1]:.1f}"
            mx, my = _bezier_mid(p0, p1, p2, p3)
        else:
            # Longer back edge: out of one side, through a channel beside every layer it spans, into
            # the same side; the side where both ends are outermost in their layers, when there is one.
            ls, ld = lay.layer[e.src], lay.layer[e.dst]
            span = [v for k in range(min(ls, ld), max(ls, ld) + 1) for v in real_rows[k]]
            outer_r = real_rows[ls][-1] == e.src and real_rows[ld][-1] == e.dst
            outer_l = real_rows[ls][0] == e.src and real_rows[ld][0] == e.dst
            right = outer_r if outer_r != outer_l else X[e.src] + X[e.dst] >= 2 * centre
            side = "r" if right else "l"
            side_count[side] += 1
            sgn = 1 if right else -1
            sx = x1 + NODE_W if right else x1
            dx = x2 + NODE_W if right else x2
            edge_x = max(X[v] + NODE_W / 2 for v in span) if right else min(X[v] - NODE_W / 2 for v in span)
            channel = edge_x + sgn * (24 + 14 * (side_count[side] - 1))
            p0, p3 = (sx, y1 + NODE_H * 0.62), (dx, y2 + NODE_H * 0.38)
            p1, p2 = (p0[0] + (channel - p0[0]) / 0.75, p0[1]), (p3[0] + (channel - p3[0]) / 0.75, p3[1])
            d = f"M{p0[0]:.1f},{p0[1]:.1f} C{p1[0]:.1f},{p1[1]:.1f} {p2[0]:.1f},{p2[1]:.1f} {p3[0]:.1f},{p3[1]:.1f}"
            mx, my = _bezier_mid(p0, p1, p2, p3)
        start_marker = ' marker-start="url(#bar)"' if e.blocking else ""
        desc = (f"{e.src} → {e.dst}: delay {e.delay if e.delay is not None else '?'}, distance {e.distance}"
                + (", blocking (the consumer waits on an asynchronous producer)" if e.blocking else "")
                + (", crosses warp groups" if e.cross else ""))
        edge_svg.append(f'<path class="{cls}" data-src="{_e(e.src)}" data-dst="{_e(e.dst)}" d="{d}" '
                        f'marker-end="url(#arr-{kind})"{start_marker}><title>{_e(desc)}</title></path>')
        lab = f"{e.delay if e.delay is not None else '?'}/{e.distance}"
        lcls = "elab" + (" crosswarp" if e.cross else " blocking" if e.blocking else "")
        mx, my = _free_spot(mx, my, len(lab) * 6.0 + 4, 12.0, taken)
        label_svg.append(f'<text class="{lcls}" data-src="{_e(e.src)}" data-dst="{_e(e.dst)}" x="{mx:.1f}" '
                         f'y="{my + 3.5:.1f}">{_e(lab)}</text>')
    node_svg = []
    for n in pd.nodes:
        x, y = X[n.id] - NODE_W / 2, Y[lay.layer[n.id]]
        c = pd.colour(n)
        name = n.id if len(n.id) <= 20 else n.id[:19] + "…"
        cost = f"{_num(n.cycles)} cyc" if n.cycles is not None else f"{n.cost} u"
        sub = f"{n.kind} · {cost}" + (f" · {pd.wg_label(n.wg).split(' ')[0]}" if n.wg is not None else "")
        if len(sub) > 24:   # the colour already names the warp group
            sub = f"{n.kind} · {cost}"
        node_svg.append(
            f'<g class="node{" vl" if n.variable_latency else ""}" data-id="{_e(n.id)}" data-wg="{"" if n.wg is None else n.wg}">'
            f'<rect class="box" x="{x:.1f}" y="{y:.1f}" width="{NODE_W}" height="{NODE_H}" rx="9" '
            f'fill="{tint(c, 0.72)}" stroke="{c}"/>'
            f'<rect x="{x:.1f}" y="{y + 8:.1f}" width="4" height="{NODE_H - 16}" rx="2" fill="{c}"/>'
            f'<text class="nid" x="{x + NODE_W / 2:.1f}" y="{y + 20:.1f}">{_e(name)}</text>'
            f'<text class="nsub" x="{x + NODE_W / 2:.1f}" y="{y + 37:.1f}">{_e(sub)}</text></g>')
    parts += edge_svg + node_svg + label_svg + ["</svg>"]
    return "".join(parts)


def _graph_legend(pd: PageData) -> str:
    items = []
    if pd.groups:
        for g in pd.groups:
            c = wg_colour(g, pd.groups, pd.vl_group)
            n = sum(1 for x in pd.nodes if x.wg == g)
            items.append(f'<span><span class="sw" style="background:{tint(c, .72)};border-color:{c}"></span>'
                         f'{_e(pd.wg_label(g))} ({n} ops)</span>')
    else:
        for u, _ in pd.units:
            c = UNIT_COLOUR.get(u, "#8d99ae")
            items.append(f'<span><span class="sw" style="background:{tint(c, .72)};border-color:{c}"></span>unit {_e(u)}</span>')

    def line(style: str, label: str, marker: str = "") -> str:
        return (f'<span><svg width="34" height="10"><line x1="2" y1="5" x2="32" y2="5" style="{style}"/>{marker}</svg>'
                f'{_e(label)}</span>')
    items += [line("stroke:#8b93a5;stroke-width:1.6", "dependence"),
              line("stroke:#8b93a5;stroke-width:1.6;stroke-dasharray:6 4", "loop-carried (distance ≥ 1)"),
              line("stroke:#c0392b;stroke-width:2", "blocking (waits on async producer)",
                   '<rect x="1" y="1" width="3" height="8" fill="#c0392b"/>'),
              line("stroke:#7b4fb0;stroke-width:2.6", "crosses warp groups"),
              "<span>edge label: delay/distance · node: kind · cost</span>"]
    return '<div class="legend">' + "".join(items) + "</div>"


# ----------------------------------------------------------------------------------------------
# Reservation table and pipelined timeline
# ----------------------------------------------------------------------------------------------
def _folded(a: int, length: int, ii: int) -> list[tuple[int, int]]:
    """The slots [a, a + length) folded onto one II, as at most two runs."""
    if length >= ii:
        return [(0, ii)]
    s = a % ii
    if s + length <= ii:
        return [(s, s + length)]
    return [(s, ii), (0, s + length - ii)]


def _row(kind: str, key: str, label: str, sub: str, y: float, lanes: int, lane_h: float,
         bars: list[str], width: float) -> tuple[str, float]:
    h = max(lanes * lane_h + 6, 36.0)
    body = [f'<g class="{kind}" data-{kind.split("-")[0]}="{_e(key)}">',
            f'<rect class="lane" x="{LEFT}" y="{y:.1f}" width="{width:.1f}" height="{h:.1f}" rx="4"/>',
            f'<text class="rowlab" x="10" y="{y + 15:.1f}">{_e(label)}</text>',
            f'<text class="rowsub" x="10" y="{y + 29:.1f}">{_e(sub)}</text>']
    return "".join(body + bars) + "</g>", h


def _bar(pd: PageData, n: ViewNode, x: float, y: float, w: float, h: float, note: str, label: str = "") -> str:
    c = pd.colour(n)
    w = max(w, 3.0)
    text = label or n.id
    lab = (f'<text class="blab" x="{x + 5:.1f}" y="{y + h / 2 + 3.8:.1f}">{_e(text)}</text>'
           if _fits(text, w) else "")
    return (f'<rect class="bar" data-id="{_e(n.id)}" data-note="{_e(note)}" x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" '
            f'height="{h:.1f}" rx="3" fill="{tint(c, .45)}" stroke="{c}"/>{lab}')


def mrt_svg(pd: PageData) -> str:
    """The modulo reservation table: one row per unit, every reservation folded onto one II."""
    ii, px, lane_h = pd.ii, PLOT_W / pd.ii, 24
    y, rows = 8.0, []
    for unit, cap in pd.units:
        spans = []
        for n in pd.nodes:
            if n.start is None:
                continue
            for (u, off, ln, cnt) in n.rrt:
                if u != unit or ln <= 0:
                    continue
                for _ in range(max(1, cnt)):
                    for a, b in _folded(n.start + off, ln, ii):
                        spans.append((float(a), float(b), n))
        placed = _lanes(spans)
        lanes = max([cap] + [p[0] + 1 for p in placed])
        busy = sum(b - a for a, b, _ in spans)
        util = busy / (max(cap, 1) * ii)
        bars = []
        for lane, a, b, n in placed:
            stage = (n.start or 0) // ii
            note = f"{unit}: slots {int(a)}–{int(b) - 1} of II = {ii} (stage {stage})"
            bars.append(_bar(pd, n, LEFT + a * px, y + 3 + lane * lane_h, (b - a) * px, lane_h - 4, note))
        bars.append(f'<text class="util" x="{LEFT + PLOT_W + 8}" y="{y + 15}">{util:.0%}</text>')
        g, h = _row("unit-row", unit, unit, f"×{cap} instance{'s' if cap != 1 else ''}", y, lanes, lane_h, bars, PLOT_W)
        rows.append(g)
        y += h + 6
    grid = ""
    if px >= 6:
        grid = "".join(f'<line class="gridline" x1="{LEFT + t * px:.1f}" y1="4" x2="{LEFT + t * px:.1f}" y2="{y:.1f}"/>'
                       for t in range(ii + 1))
    axis = _axis(LEFT, px, ii, y + 2, 4, _unit_title(pd) + f" · slot = t mod II ({ii})")
    height = y + 36
    return (f'<svg class="mrt" width="{LEFT + PLOT_W + 48}" height="{height:.0f}" xmlns="http://www.w3.org/2000/svg">'
            + grid + axis + "".join(rows) + "</svg>")


def timeline_svg(pd: PageData) -> str:
    """ceil(L/II) staggered copies of one iteration: prologue, steady state and epilogue, one row per
    warp group and one per unit."""
    ii, L, S = pd.ii, pd.length, max(1, math.ceil(pd.length / pd.ii))
    end = (S - 1) * ii + max(L, ii)
    px, lane_h = PLOT_W / end, 22
    head = 34 + S * 16
    out: list[str] = []
    y = float(head)
    rows: list[str] = []
    for g in pd.groups:
        spans = []
        for n in pd.nodes:
            if n.wg != g or n.start is None:
                continue
            for i in range(S):
                a = n.start + i * ii
                spans.append((float(a), float(a + max(n.cost, 0)) if n.cost > 0 else a + 3 / px, (n, i)))
        placed = _lanes(spans)
        lanes = max([1] + [p[0] + 1 for p in placed])
        bars = [_bar(pd, n, LEFT + a * px, y + 3 + lane * lane_h, (b - a) * px, lane_h - 4,
                     f"iteration {i}, {pd.wg_label(g)}: t = {int(a)}–{int(a) + n.cost}", n.id)
                for lane, a, b, (n, i) in placed]
        count = sum(1 for n in pd.nodes if n.wg == g)
        kind = "loads" if g == pd.vl_group else "compute"
        row, h = _row("wg-row", str(g), pd.wg_label(g).split(" ")[0], f"{kind} · {count} ops", y, lanes, lane_h,
                      bars, end * px)
        rows.append(row)
        y += h + 6
    if pd.groups:
        y += 8
    for unit, cap in pd.units:
        spans = []
        for n in pd.nodes:
            if n.start is None:
                continue
            for (u, off, ln, cnt) in n.rrt:
                if u == unit and ln > 0:
                    for i in range(S):
                        for _ in range(max(1, cnt)):
                            spans.append((float(n.start + off + i * ii), float(n.start + off + ln + i * ii), (n, i)))
        placed = _lanes(spans)
        lanes = max([1] + [p[0] + 1 for p in placed])
        bars = [_bar(pd, n, LEFT + a * px, y + 3 + lane * lane_h, (b - a) * px, lane_h - 4,
                     f"iteration {i} on {unit}: t = {int(a)}–{int(b) - 1}", n.id)
                for lane, a, b, (n, i) in placed]
        row, h = _row("unit-row", unit, unit, f"unit ×{cap}", y, lanes, lane_h, bars, end * px)
        rows.append(row)
        y += h + 6
    bottom = y
    pro, steady_end = (S - 1) * ii, S * ii
    for a, b, cls, lab in ((0, pro, "pro", "prologue"), (pro, steady_end, "steady", "steady state"),
                           (steady_end, (S - 1) * ii + L, "epi", "epilogue")):
        if b > a:
            out.append(f'<g class="phase" data-phase="{cls}"><rect class="phase-{cls}" x="{LEFT + a * px:.1f}" y="0" '
                       f'width="{(b - a) * px:.1f}" height="{bottom:.1f}"/>'
                       f'<text class="phase-label" x="{LEFT + (a + b) / 2 * px:.1f}" y="16" text-anchor="middle">'
                       f'{_e(lab)}</text></g>')
    for i in range(S):
        iy = 26 + i * 16
        a = i * ii
        out.append(f'<g class="iteration" data-iter="{i}"><rect class="iter" x="{LEFT + a * px:.1f}" y="{iy}" '
                   f'width="{L * px:.1f}" height="9" rx="4.5"/>'
                   + "".join(f'<line x1="{LEFT + (a + k * ii) * px:.1f}" y1="{iy}" x2="{LEFT + (a + k * ii) * px:.1f}" '
                             f'y2="{iy + 9}" stroke="#fff" stroke-width="2"/>' for k in range(1, S))
                   + f'<text class="iter-lab" x="10" y="{iy + 8.5}">iteration {i}</text></g>')
    axis = _axis(LEFT, px, end, bottom + 2, head - 4, _unit_title(pd))
    width = LEFT + end * px + 24
    return (f'<svg class="timeline" width="{width:.0f}" height="{bottom + 36:.0f}" xmlns="http://www.w3.org/2000/svg">'
            + "".join(out) + axis + "".join(rows) + "</svg>")


# ----------------------------------------------------------------------------------------------
# Memory pressure
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Series:
    label: str
    colour: str
    points: tuple[tuple[float, float], ...]    # (t, bytes), a step function


def _points(v: Any) -> tuple[tuple[float, float], ...]:
    """Per-slot lists ``[b0, b1, ...]`` or ``[[t, bytes], ...]`` as (t, bytes) steps."""
    if not isinstance(v, list) or not v:
        return ()
    if all(isinstance(x, (int, float)) for x in v):
        return tuple((float(i), float(b)) for i, b in enumerate(v))
    return tuple((float(p[0]), float(p[1])) for p in v if isinstance(p, (list, tuple)) and len(p) == 2)


def memory_charts(pd: PageData) -> list[tuple[str, list[_Series], float | None, str]]:
    """(title, series, limit, note) per memory chart, from the schedule's ``liveness`` or ``memory``."""
    s = pd.schedule
    live = s.get("liveness") if isinstance(s.get("liveness"), dict) else {}
    mem = s.get("memory") if isinstance(s.get("memory"), dict) else {}
    charts = []
    for m in MEMORIES:
        rec = live.get(m) if isinstance(live.get(m), dict) else {}
        alt = mem.get(m) if isinstance(mem.get(m), dict) else {}
        pts = _points(rec.get("per_slot")) or (_points(alt.get("pressure")) if not isinstance(alt.get("pressure"), dict) else ())
        limit = _float(rec.get("capacity")) or _float(alt.get("limit")) or _float((mem.get("capacity") or {}).get(m))
        if pts and (any(b for _, b in pts) or limit):
            charts.append((MEMORY_TITLE[m], [_Series("whole CTA", "#3d5a98", pts)], limit, "per CTA"))
    per = live.get("registers_per_group") if isinstance(live.get("registers_per_group"), dict) else {}
    per_slot = per.get("per_slot") if isinstance(per.get("per_slot"), dict) else {}
    limit = _float(per.get("limit"))
    alt = mem.get("registers") if isinstance(mem.get("registers"), dict) else {}
    if not per_slot and isinstance(alt.get("pressure"), dict):
        per_slot, limit = alt["pressure"], _float(alt.get("per_wg_limit"))
    if per_slot:
        series = [_Series(pd.wg_label(_int(g)), wg_colour(_int(g), pd.groups, pd.vl_group), _points(v))
                  for g, v in sorted(per_slot.items(), key=lambda kv: _int(kv[0]))]
        charts.append(("Registers per warp group", [x for x in series if x.points], limit, "per warp group"))
    return charts


def _memory_chart_svg(title: str, series: list[_Series], limit: float | None, ii: int) -> str:
    many = len(series) > 1
    w, h, l, t, b = 540, 214 if many else 200, 64, 46 if many else 30, 34
    pw, ph = w - l - 16, h - t - b
    t_end = float(ii) if ii > 0 else max((p[-1][0] + 1 for p in (s.points for s in series) if p), default=1.0)
    peak = max((v for s in series for _, v in s.points), default=0.0)
    want = max(peak, limit or 0.0) * 1.08 or 1.0
    unit = 1024.0 if want >= 4096 else 1.0
    step = _nice_step(want / unit, 4) * unit
    top = step * math.ceil(want / step)
    X = lambda x: l + x / t_end * pw  # noqa: E731
    Y = lambda v: t + ph - v / top * ph  # noqa: E731
    out = [f'<svg class="memchart" width="{w}" height="{h}" xmlns="http://www.w3.org/2000/svg">',
           f'<text class="rowlab" x="0" y="14">{_e(title)}</text>']
    for k in range(0, int(round(top / step)) + 1):
        v = step * k
        out.append(f'<line class="gridline" x1="{l}" x2="{l + pw}" y1="{Y(v):.1f}" y2="{Y(v):.1f}"/>'
                   f'<text class="tick" x="{l - 6}" y="{Y(v) + 3.5:.1f}" text-anchor="end">{_e(_bytes(v))}</text>')
    for s in series:
        pts = sorted(s.points)
        d = []
        for i, (x, v) in enumerate(pts):
            x_next = pts[i + 1][0] if i + 1 < len(pts) else t_end
            d.append(f"{'M' if i == 0 else 'L'}{X(x):.1f},{Y(v):.1f} L{X(x_next):.1f},{Y(v):.1f}")
        fill = "none" if many else tint(s.colour, .8)
        area = f'M{X(pts[0][0]):.1f},{Y(0):.1f} ' + " ".join(x.replace("M", "L", 1) for x in d[:1]) + " " + " ".join(d[1:]) + \
            f' L{X(t_end):.1f},{Y(0):.1f} Z'
        if not many:
            out.append(f'<path d="{area}" fill="{fill}" stroke="none"/>')
        pk = max(v for _, v in pts)
        out.append(f'<path class="area" d="{" ".join(d)}" fill="none" stroke="{s.colour}"><title>{_e(s.label)}: '
                   f'peak {_e(_bytes(pk))}</title></path>')
    if limit:
        out.append(f'<line class="limit" x1="{l}" x2="{l + pw}" y1="{Y(limit):.1f}" y2="{Y(limit):.1f}"/>'
                   f'<text class="limit-lab" x="{l + pw}" y="{Y(limit) - 5:.1f}" text-anchor="end">limit {_e(_bytes(limit))}</text>')
    out.append(_axis(l, pw / t_end, t_end, t + ph, t + ph, "slot in the steady state (t mod II)"))
    if many:
        lx = l + 6
        for s in series:
            label = f"{s.label.split(' ')[0]} {_bytes(max(v for _, v in s.points))}"
            out.append(f'<rect x="{lx}" y="{t - 21}" width="12" height="4" rx="2" fill="{s.colour}"/>'
                       f'<text class="rowsub" x="{lx + 16}" y="{t - 15}">{_e(label)}</text>')
            lx += 16 + len(label) * 5.8 + 16
    out.append("</svg>")
    return "".join(out)


# ----------------------------------------------------------------------------------------------
# Measured against predicted
# ----------------------------------------------------------------------------------------------
def _measured_iteration(pd: PageData) -> float | None:
    v, p = pd.validation or {}, pd.profile or {}
    it = p.get("iteration") if isinstance(p.get("iteration"), dict) else {}
    return _float(v.get("measured_iteration_cycles")) or _float(p.get("iteration_cycles")) or _float(it.get("median_cycles"))


def _predicted_iteration(pd: PageData) -> float | None:
    v = pd.validation or {}
    pred = pd.schedule.get("predicted") or {}
    return _float(v.get("predicted_iteration_cycles")) or _float(pred.get("iteration_cycles")) or \
        (pd.ii * pd.scale if pd.ii else None)


def measured_svg(pd: PageData) -> str:
    """One iteration in cycles: predicted bars at their scheduled starts, measured medians (with the
    p10-p90 range) over them, and the measured iteration time over the predicted II."""
    rows = [n for n in pd.nodes if n.start is not None]
    if not rows:
        return ""
    rows.sort(key=lambda n: (n.start, n.id))
    pred_it, meas_it = _predicted_iteration(pd), _measured_iteration(pd)
    ends = [n.start * pd.scale + max(n.cycles or 0, (n.measured or (0,))[0], (n.measured or (0, 0, 0))[2] or 0)
            for n in rows]
    end = max(ends + [pred_it or 0, meas_it or 0, pd.length * pd.scale]) * 1.03
    lab_w = 170
    px = PLOT_W / end
    rh = 22
    y = 10.0
    out = []
    for title, val, colour in (("predicted iteration (II)", pred_it, "#8d99ae"), ("measured iteration", meas_it, "#1d2330")):
        if val:
            out.append(f'<g class="it-row"><text class="rowlab" x="0" y="{y + 14}">{_e(title)}</text>'
                       f'<rect x="{lab_w}" y="{y + 3}" width="{val * px:.1f}" height="{rh - 8}" rx="3" fill="{colour}" '
                       f'fill-opacity="{0.35 if colour != "#1d2330" else 0.85}"/>'
                       f'<text class="rowsub" x="{lab_w + val * px + 6:.1f}" y="{y + 14}">{_e(_num(val))} cycles</text></g>')
            y += rh
    y += 8
    for n in rows:
        c = pd.colour(n)
        x0 = lab_w + n.start * pd.scale * px
        pred_w = (n.cycles or 0) * px
        parts = [f'<g class="meas-row" data-node="{_e(n.id)}"><text class="rowsub" x="0" y="{y + 14}">{_e(n.id)}</text>',
                 f'<rect class="bar" data-id="{_e(n.id)}" data-note="predicted {_e(_num(n.cycles))} cycles" x="{x0:.1f}" '
                 f'y="{y + 3}" width="{max(pred_w, 2):.1f}" height="{rh - 6}" rx="3" fill="{tint(c, .6)}" stroke="{c}"/>']
        if n.measured:
            med, p10, p90, _ = n.measured
            parts.append(f'<rect data-id="{_e(n.id)}" data-note="measured median {_e(_num(med))} cycles" x="{x0:.1f}" '
                         f'y="{y + rh / 2 - 2:.1f}" width="{max(med * px, 2):.1f}" height="5" rx="1.5" fill="#1d2330"/>')
            if p10 is not None and p90 is not None:
                parts.append(f'<line x1="{x0 + p10 * px:.1f}" x2="{x0 + p90 * px:.1f}" y1="{y + rh / 2 + .5:.1f}" '
                             f'y2="{y + rh / 2 + .5:.1f}" stroke="#1d2330" stroke-width="1"/>'
                             f'<line x1="{x0 + p90 * px:.1f}" x2="{x0 + p90 * px:.1f}" y1="{y + 6}" y2="{y + rh - 5}" '
                             f'stroke="#1d2330" stroke-width="1"/>')
        parts.append("</g>")
        out.append("".join(parts))
        y += rh
    axis = _axis(lab_w, px, end, y + 2, 6, "cycles from the start of the iteration")
    return (f'<svg class="measured" width="{lab_w + PLOT_W + 40}" height="{y + 38:.0f}" xmlns="http://www.w3.org/2000/svg">'
            + axis + "".join(out) + "</svg>")


def _validation_cards(v: dict[str, Any]) -> list[tuple[str, str, str]]:
    """Cards of a ``twill validate`` record: correctness, speed against Triton's own, critical path."""
    cards: list[tuple[str, str, str]] = []
    c = v.get("correctness") if isinstance(v.get("correctness"), dict) else {}
    if "pass" in c:
        err = _float(c.get("max_rel_err_reference"))
        cards.append(("correctness", "PASS" if c["pass"] else "FAIL",
                      f"rel. error {err:.1e} vs reference" if err is not None else ""))
    sp = v.get("speed") if isinstance(v.get("speed"), dict) else {}
    unit = str(sp.get("unit") or "TFLOP/s")
    for key, title, detail in (("twill", "twill", f"streaming depth {sp.get('twill_depth')}"),
                               ("triton_default", "Triton default", "same tile sizes"),
                               ("triton_best", "Triton best", str(sp.get("triton_best_config") or ""))):
        if _float(sp.get(key)) is not None:
            cards.append((title, f"{_num(sp[key])} <small>{_e(unit)}</small>", detail))
    if not sp and _float(v.get("tflops")) is not None:
        cards.append(("throughput", f"{_num(v['tflops'])} <small>TFLOP/s</small>", str(v.get("problem", ""))[:60]))
    for k in ("baseline_tflops", "speedup") if not sp else ("speedup",):
        if _float(v.get(k)) is not None:
            cards.append((k.replace("_", " "), _num(v[k]), "over Triton default" if k == "speedup" else ""))
    cp = v.get("critical_path") if isinstance(v.get("critical_path"), dict) else {}
    if _float(cp.get("measured_cycles")) is not None and _float(cp.get("predicted_cycles")):
        path = [str(x) for x in cp.get("nodes") or []]
        ends = path if len(path) <= 2 else [path[0], "…", path[-1]]
        cards.append(("critical path", f"{_num(cp['measured_cycles'])} <small>/ {_num(cp['predicted_cycles'])} cycles</small>",
                      f"measured / predicted ({float(cp['measured_cycles']) / float(cp['predicted_cycles']) - 1:+.1%}), "
                      + " → ".join(str(x) for x in ends)))
    return cards


def _measured_section(pd: PageData) -> str:
    if not (pd.profile or pd.validation):
        return ""
    pred_it, meas_it = _predicted_iteration(pd), _measured_iteration(pd)
    cards = [("predicted iteration", f"{_num(pred_it)} <small>cycles</small>", "II × cycles per unit")]
    if meas_it:
        err = (meas_it - pred_it) / pred_it if pred_it else None
        cards.append(("measured iteration", f"{_num(meas_it)} <small>cycles</small>",
                      f"{err:+.1%} against the prediction" if err is not None else ""))
    v = pd.validation or {}
    if _float(v.get("measured_iteration_cycles_uninstrumented")) is not None and pred_it:
        est = float(v["measured_iteration_cycles_uninstrumented"])
        cards.append(("uninstrumented (est.)", f"{_num(est)} <small>cycles</small>",
                      f"{(est - pred_it) / pred_it:+.1%}, by the timing ratio"))
    cards += _validation_cards(v)
    table = ""
    meas = [n for n in pd.nodes if n.measured]
    if meas:
        body = "".join(
            f'<tr><td>{_e(n.id)}</td><td class="num">{_e(_num(n.cycles))}</td><td class="num">{_e(_num(n.measured[0]))}</td>'
            f'<td class="num">{_e(_num(n.measured[1]))}–{_e(_num(n.measured[2]))}</td>'
            f'<td class="num">{_e(n.measured[3] if n.measured[3] is not None else "–")}</td>'
            f'<td class="num">{((n.measured[0] - n.cycles) / n.cycles if n.cycles else 0):+.0%}</td></tr>' for n in meas)
        table = (f'<details><summary>per-node table ({len(meas)} ops, cycles)</summary><table class="grid"><tr><th>node</th><th class="num">predicted</th>'
                 '<th class="num">measured median</th><th class="num">p10–p90</th><th class="num">samples</th>'
                 f'<th class="num">error</th></tr>{body}</table></details>')
    return ('<section class="card" id="measured"><h2>Measured against predicted</h2>'
            '<p class="lede">Bars: the predicted latency of each op at its scheduled start. Dark line: the measured median '
            '(whisker to the 90th percentile). Top: the measured iteration time over the predicted II.</p>'
            + _metric_cards(cards) + f'<div class="scroll">{measured_svg(pd)}</div>{table}</section>')


# ----------------------------------------------------------------------------------------------
# Summary, search trace, the page
# ----------------------------------------------------------------------------------------------
def _metric_cards(cards: list[tuple[str, str, str]]) -> str:
    """Cards of (key, value html, detail); the value is already escaped."""
    return '<div class="metrics">' + "".join(
        f'<div class="metric"><div class="k">{_e(k)}</div><div class="v">{v}</div><div class="d">{_e(d)}</div></div>'
        for k, v, d in cards) + "</div>"


def _phase_bar(phases: dict[str, Any]) -> str:
    items = [(k, _float(v) or 0.0) for k, v in phases.items() if _float(v) is not None]
    total = sum(v for _, v in items)
    if total <= 0:
        return ""
    colours = ("#4C78A8", "#F58518", "#54A24B", "#B279A2", "#E45756", "#72B7B2", "#EECA3B", "#9D755D")
    w, x, segs, legend = 900.0, 0.0, [], []
    for i, (k, v) in enumerate(items):
        c = colours[i % len(colours)]
        segs.append(f'<rect x="{x:.1f}" y="0" width="{max(v / total * w, 0.5):.1f}" height="16" fill="{c}">'
                    f'<title>{_e(k)}: {_e(_seconds(v))}</title></rect>')
        x += v / total * w
        legend.append(f'<span><span class="sw" style="background:{c};border-color:{c}"></span>{_e(k)} {_e(_seconds(v))}</span>')
    return (f'<h3>Time per phase ({_e(_seconds(total))} in all)</h3><svg width="100%" height="16" class="phases" '
            f'viewBox="0 0 {w:.0f} 16" preserveAspectRatio="none">'
            + "".join(segs) + '</svg><div class="legend">' + "".join(legend) + "</div>")


def _trace_table(title: str, trace: list[Any]) -> str:
    rows = [t for t in trace if isinstance(t, dict)]
    if not rows:
        return ""
    body = []
    for t in rows[:80]:
        res = str(t.get("result", t.get("status", "?")))
        ln = t.get("length")
        ln = f"{ln[0]}–{ln[1]}" if isinstance(ln, list) and len(ln) == 2 else ln
        found = t.get("found_length")
        body.append(f'<tr><td class="num">{_e(t.get("ii"))}</td><td class="num">{_e(ln if ln is not None else "–")}'
                    f'{_e(f" → {found}") if found is not None else ""}</td>'
                    f'<td><span class="chip {_e(res)}">{_e(res)}</span></td><td class="num">{_e(_seconds(t.get("seconds")))}</td></tr>')
    more = f'<p class="note">… and {len(rows) - 80} more</p>' if len(rows) > 80 else ""
    table = (f'<table class="grid trace"><tr><th class="num">II</th><th class="num">L</th>'
             f'<th>result</th><th class="num">time</th></tr>{"".join(body)}</table>{more}')
    if len(rows) <= 8:
        return f"<h3>{_e(title)}</h3>{table}"
    counts: dict[str, int] = {}
    for t in rows:
        r = str(t.get("result", t.get("status", "?")))
        counts[r] = counts.get(r, 0) + 1
    strip = "".join(
        f'<span class="tcell {_e(t.get("result", t.get("status", "?")))}" title="II {_e(t.get("ii"))}, L '
        f'{_e(t.get("length"))}: {_e(t.get("result", t.get("status")))} in {_e(_seconds(t.get("seconds")))}"></span>'
        for t in rows)
    first, last = rows[0].get("ii"), rows[-1].get("ii")
    said = ", ".join(f"{n} {r}" for r, n in counts.items())
    return (f'<h3>{_e(title)}</h3><p class="note">{len(rows)} attempts, II {_e(first)} to {_e(last)}: {_e(said)}</p>'
            f'<div class="tstrip">{strip}</div><details><summary>every attempt</summary>{table}</details>')


def _summary_section(pd: PageData) -> str:
    s = pd.schedule
    mii = s.get("mii") if isinstance(s.get("mii"), dict) else {}
    proof = s.get("proof") if isinstance(s.get("proof"), dict) else {}
    summ = s.get("search_summary") if isinstance(s.get("search_summary"), dict) else {}
    joint = s.get("joint") if isinstance(s.get("joint"), dict) else {}
    norm = s.get("normalization") if isinstance(s.get("normalization"), dict) else {}
    kv: list[tuple[str, str]] = [("status", pd.status), ("backend", str(s.get("backend") or "–")),
                                 ("solve time", _seconds(s.get("solve_seconds")))]
    if summ.get("proof"):
        kv.append(("proof", str(summ["proof"])))
    elif proof:
        kv.append(("proof", f"II {'proved minimal' if proof.get('ii_proved') else 'not proved minimal'}; "
                            f"L {'proved minimal' if proof.get('length_proved') else 'not proved minimal'}"))
    kv.append(("lower bound on II", f"{_num(s.get('lower_bound'))}" + (
        f" (MII {mii.get('mii')}: resources {mii.get('res_mii')}, recurrences {mii.get('rec_mii')})" if mii else "")))
    if proof.get("length_lower_bound") is not None:
        kv.append(("lower bound on L", _num(proof["length_lower_bound"])))
    if s.get("gap") is not None:
        kv.append(("gap", f"{_float(s['gap']) or 0:.3g}"))
    if norm:
        kv.append(("cost normalisation", f"1 unit = {_num(norm.get('scale'))} cycles, worst ratio error "
                                         f"{_num(norm.get('worst_ratio_error'))}"))
    if joint.get("status") and not pd.groups:
        kv.append(("joint search", f"{joint['status']}: no warp assignment found; the modulo schedule is shown"))
    if isinstance(s.get("warp_groups"), dict):
        wgs = s["warp_groups"]
        kv.append(("warp groups", f"{wgs.get('compute')} compute" + (
            f" + WG{wgs['variable_latency']} for loads" if wgs.get("variable_latency") is not None else "")
            + (f", register limit {_bytes(wgs['reg_limit_bytes'])} per group" if wgs.get("reg_limit_bytes") else "")))
    if pd.units:
        kv.append(("functional units", ", ".join(f"{u} ×{c}" for u, c in pd.units)))
    if s.get("cross_warp"):
        kv.append(("cross-warp edges", str(len(s["cross_warp"]))))
    if s.get("triton_version"):
        kv.append(("Triton", str(s["triton_version"])))
    hints = s.get("hints") if isinstance(s.get("hints"), dict) else {}
    if isinstance(hints.get("tl.range"), dict):
        kv.append(("source hints", "tl.range(..., " + ", ".join(f"{k}={v!r}" for k, v in hints["tl.range"].items())
                   + "); launch " + ", ".join(f"{k}={v!r}" for k, v in (hints.get("launch") or {}).items())))
        kv += [("not expressible as a hint", str(x)) for x in hints.get("not_expressible") or []]
    table = '<table class="kv">' + "".join(f"<tr><td>{_e(k)}</td><td>{_e(v)}</td></tr>" for k, v in kv) + "</table>"
    joint_trace = s.get("search") or joint.get("search") or []
    traces = _trace_table("Joint search (Algorithm 1): (I, L) tried", joint_trace) + \
        _trace_table("Modulo ILP: II tried", s.get("trace") or [])
    phases = s.get("phases") or s.get("modulo_phases") or {}
    return ('<section class="card" id="solver"><h2>Solver summary</h2>'
            '<p class="lede">What was proved, how long each phase took, and every (I, L) the search tried.</p>'
            f'<div class="cols"><div>{table}{_phase_bar(phases) if isinstance(phases, dict) else ""}</div>'
            f'<div>{traces or "<p class=note>No search trace recorded.</p>"}</div></div></section>')


def _header(pd: PageData) -> str:
    s = pd.schedule
    mii = s.get("mii") if isinstance(s.get("mii"), dict) else {}
    sub = " · ".join(x for x in (f"{len(pd.nodes)} ops, {len(pd.edges)} edges", f"machine {s['machine']}" if s.get("machine") else "",
                                 f"Triton {s['triton_version']}" if s.get("triton_version") else "",
                                 str(s.get("backend") or "")) if x)
    on = f' <span class="on">on {_e(pd.arch)}</span>' if pd.arch else ""
    cyc = lambda u: f"≈ {_num(u * pd.scale)} cycles" if pd.scale != 1.0 else "cycles"  # noqa: E731
    cards = [("initiation interval", f"{_num(pd.ii)}", cyc(pd.ii)),
             ("schedule length", f"{_num(pd.length)}", cyc(pd.length)),
             ("stages", f"{_num(pd.stages)}", "ceil(L / II)"),
             ("lower bound", f"{_num(s.get('lower_bound'))}",
              f"res {mii.get('res_mii')} · rec {mii.get('rec_mii')}" if mii else "on II"),
             ("warp groups", f"{len(pd.groups)}" if pd.groups else "–",
              f"{len(s.get('cross_warp') or [])} cross-warp edges" if pd.groups else "modulo schedule only"),
             ("solve time", _e(_seconds(s.get("solve_seconds"))), str(s.get("backend") or ""))]
    return (f'<header class="top"><div><h1>{_e(pd.name)}{on}</h1><div class="sub">{_e(sub)}</div></div>'
            f'<div><span class="badge {_e(pd.status)}">{_e(pd.status)}</span></div></header>' + _metric_cards(cards))


def _tooltip_data(pd: PageData) -> dict[str, Any]:
    nodes = {}
    for n in pd.nodes:
        start = None
        if n.start is not None and pd.ii > 0:
            start = f"t = {n.start}" + (f" (≈ {_num(n.start * pd.scale)} cycles)" if pd.scale != 1.0 else "") + \
                f", stage {n.start // pd.ii}, slot {n.start % pd.ii} of {pd.ii}"
        cost = f"{n.cost} units" + (f" ≈ {_num(n.cycles)} cycles" if n.cycles is not None and pd.scale != 1.0 else
                                     "" if pd.scale != 1.0 else "")
        if pd.scale == 1.0:
            cost = f"{_num(n.cycles if n.cycles is not None else n.cost)} cycles"
        if n.cost_source:
            cost += f" ({n.cost_source})"
        if n.rrt:
            cost += "; holds " + ", ".join(f"{u}×{c} for {ln} from +{off}" for u, off, ln, c in n.rrt)
        meas = None
        if n.measured:
            med, p10, p90, cnt = n.measured
            meas = f"median {_num(med)} cycles" + (f" (p10 {_num(p10)}, p90 {_num(p90)})" if p10 is not None else "") + \
                (f", {cnt} samples" if cnt else "")
        memory = ", ".join(f"{k} {_bytes(v)}" for k, v in (("regs", n.regs), ("smem", n.smem), ("tmem", n.tmem)) if v)
        src = f"{os.path.basename(n.file) if n.file else '?'}:{n.line}" if n.line is not None else None
        nodes[n.id] = {"kind": n.kind, "unit": n.unit, "wg": n.wg, "wg_label": pd.wg_label(n.wg), "colour": pd.colour(n),
                       "start_text": start, "cost_text": cost, "measured_text": meas, "memory_text": memory or None,
                       "source": src, "ops": ", ".join(n.ops) or None, "ir": [line.strip() for line in n.ir][:16]}
    return {"nodes": nodes}


def _asset(name: str) -> str:
    return (_ASSETS / name).read_text(encoding="utf-8")


def render_html(schedule: dict[str, Any], graph: dict[str, Any] | None = None, profile: dict[str, Any] | None = None,
                validation: dict[str, Any] | None = None) -> str:
    """One self-contained page for ``schedule`` (twill.schedule/1) over ``graph`` (twill.graph/1).

    Examples
    --------
    >>> page = render_html(schedule.to_dict(), graph_to_dict(graph))   # doctest: +SKIP
    >>> page.count('class="node')                                       # doctest: +SKIP
    12
    """
    pd = page_data(schedule, graph, profile, validation)
    body = [_header(pd)]
    body.append('<section class="card" id="graph"><h2>Dependence graph</h2>'
                '<p class="lede">Layers follow the dependences within one iteration; loop-carried edges curve back up '
                'the side. Colour is the warp group' + ("" if pd.groups else " (here: the functional unit, as there is no "
                                                         "warp assignment)") + '. Hover an op for its TTGIR.</p>'
                + _graph_legend(pd) + f'<div class="scroll">{graph_svg(pd)}</div></section>')
    if pd.scheduled:
        body.append(f'<section class="card" id="mrt"><h2>Modulo reservation table</h2><p class="lede">Every unit over one '
                    f'initiation interval (II = {pd.ii}): each reservation sits at its start time modulo II, so this is the '
                    f'steady state of the loop. The share of the II each unit is busy is on the right.'
                    + (f' Never reserved: {_e(", ".join(pd.idle_units))}.' if pd.idle_units else "") + '</p>'
                    f'<div class="scroll">{mrt_svg(pd)}</div></section>')
        S = max(1, math.ceil(pd.length / pd.ii))
        body.append(f'<section class="card" id="timeline"><h2>Pipelined timeline</h2><p class="lede">{S} staggered '
                    f'cop{"y" if S == 1 else "ies"} of one iteration (length L = {pd.length}), each starting II = {pd.ii} '
                    'after the previous: the prologue fills the pipeline, the steady state repeats, the epilogue drains it. '
                    f'One row per warp group and one per functional unit.</p>'
                    f'<div class="scroll">{timeline_svg(pd)}</div></section>')
    else:
        body.append(f'<section class="card" id="noschedule"><h2>No schedule</h2><p class="lede">The solver ended with '
                    f'status <b>{_e(pd.status)}</b>; the search trace below shows what was tried.</p></section>')
    charts = memory_charts(pd) if pd.scheduled else []
    if charts:
        body.append('<section class="card" id="memory"><h2>Memory pressure</h2><p class="lede">Bytes live at each slot '
                    'of the steady state (all overlapping iterations counted) against the limit the solver was given.</p>'
                    '<div class="cols">' + "".join(f"<div>{_memory_chart_svg(t, s, lim, pd.ii)}</div>" for t, s, lim, _ in charts)
                    + "</div></section>")
    body.append(_measured_section(pd))
    body.append(_summary_section(pd))
    data = json.dumps(_tooltip_data(pd)).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    title = f"twill · {pd.name}" + (f" on {pd.arch}" if pd.arch else "")
    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{_e(title)}</title>'
            f'<link rel="icon" href="data:,"><style>{_asset("view.css")}</style></head>\n<body><main>'
            + "\n".join(body) +
            f'<footer>twill schedule view · times are in schedule units unless marked as cycles</footer></main>'
            f'<div id="tip" hidden></div>'
            f'<script type="application/json" id="twill-data">{data}</script>'
            f'<script>{_asset("view.js")}</script></body></html>\n')


def write_html(path: str | Path, schedule: dict[str, Any], graph: dict[str, Any] | None = None,
               profile: dict[str, Any] | None = None, validation: dict[str, Any] | None = None) -> Path:
    """Render the page and write it to ``path`` atomically (a temporary file, then a rename).

    Examples
    --------
    >>> write_html("twill-out/fa3-h100/schedule.html", sched, graph)   # doctest: +SKIP
    PosixPath('twill-out/fa3-h100/schedule.html')
    """
    p = Path(path)
    text = render_html(schedule, graph, profile, validation)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)           # mkstemp makes it private; a page is for reading
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return p
