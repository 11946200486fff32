"""SVG of the dependence graph, layered top to bottom, and its legend."""
from __future__ import annotations

from dataclasses import dataclass, field

from twill.view.fmt import esc, num, tint
from twill.view.layout import NODE_W, GraphLayout, graph_layout, is_virtual
from twill.view.model import NO_COLOUR, UNIT_COLOUR, PageData, ViewEdge, ViewNode, wg_colour

NODE_H, LAYER_GAP = 48, 66
Point = tuple[float, float]
Box = tuple[float, float, float, float]

_MARKERS = ('<defs>' + "".join(
    f'<marker id="arr-{k}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6.5" markerHeight="6.5" '
    f'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{c}"/></marker>'
    for k, c in (("plain", "#8b93a5"), ("blocking", "#c0392b"), ("crosswarp", "#7b4fb0")))
    + '<marker id="bar" viewBox="0 0 4 12" refX="2" refY="6" markerWidth="3" markerHeight="9" orient="auto">'
      '<rect x="0" y="0" width="4" height="12" fill="#c0392b"/></marker></defs>')


def _bezier_mid(p0: Point, p1: Point, p2: Point, p3: Point) -> Point:
    return ((p0[0] + 3 * p1[0] + 3 * p2[0] + p3[0]) / 8, (p0[1] + 3 * p1[1] + 3 * p2[1] + p3[1]) / 8)


def _curve(p0: Point, p1: Point, p2: Point, p3: Point) -> tuple[str, float, float]:
    """A cubic Bezier path and its midpoint, where its label goes."""
    d = f"M{p0[0]:.1f},{p0[1]:.1f} C{p1[0]:.1f},{p1[1]:.1f} {p2[0]:.1f},{p2[1]:.1f} {p3[0]:.1f},{p3[1]:.1f}"
    return (d, *_bezier_mid(p0, p1, p2, p3))


def _free_spot(x: float, y: float, w: float, h: float, taken: list[Box]) -> Point:
    """The nearest place to (x, y) where a w x h label overlaps no box in ``taken`` (which it joins)."""
    for dx, dy in ((0, 0), (0, -11), (0, 11), (-w * .6, 0), (w * .6, 0), (0, -20), (0, 20), (-w, -11), (w, 11),
                   (-w, 11), (w, -11), (0, -30), (0, 30)):
        box = (x + dx - w / 2, y + dy - h / 2, x + dx + w / 2, y + dy + h / 2)
        if all(box[2] <= a or box[0] >= c or box[3] <= b or box[1] >= d for a, b, c, d in taken):
            taken.append(box)
            return x + dx, y + dy
    return x, y


@dataclass
class _Drawing:
    """The layout in page coordinates: ``X`` the centre of every item, ``Y`` the top of every layer,
    ``fwd`` the forward edges by index, with their ports along the boxes' bottom and top sides."""

    lay: GraphLayout
    X: dict[str, float]
    Y: dict[int, float]
    fwd: dict[int, ViewEdge]
    out_port: dict[int, float] = field(default_factory=dict)
    in_port: dict[int, float] = field(default_factory=dict)
    # long back edges drawn so far on each side, so that the next one runs further out
    side_count: dict[str, int] = field(default_factory=lambda: {"l": 0, "r": 0})
    real_rows: dict[int, list[str]] = field(init=False)
    centre: float = field(init=False)

    def __post_init__(self) -> None:
        self.real_rows = {k: [v for v in r if not is_virtual(v)] for k, r in self.lay.rows.items()}
        nodes = [x for v, x in self.X.items() if not is_virtual(v)]
        self.centre = (min(nodes) + max(nodes)) / 2

    def spread_ports(self, ids: list[str]) -> None:
        """Spread each node's ports along its bottom (out) and top (in) sides, ordered by the next
        item along the edge, so that edges leaving one box do not cross at once."""
        def nxt(i: int) -> str:
            return (self.lay.chains.get(i) or [self.fwd[i].dst])[0]

        def prv(i: int) -> str:
            return (self.lay.chains.get(i) or [self.fwd[i].src])[-1]
        for v in ids:
            outs = sorted((i for i, e in self.fwd.items() if e.src == v), key=lambda i: self.X[nxt(i)])
            ins = sorted((i for i, e in self.fwd.items() if e.dst == v), key=lambda i: self.X[prv(i)])
            for group, ports in ((outs, self.out_port), (ins, self.in_port)):
                for k, i in enumerate(group):
                    ports[i] = self.X[v] - NODE_W / 2 + NODE_W * (0.15 + 0.7 * (k + 1) / (len(group) + 1))

    def corner(self, v: str) -> Point:
        """The top-left corner of node ``v``'s box."""
        return self.X[v] - NODE_W / 2, self.Y[self.lay.layer[v]]

    def self_loop(self, e: ViewEdge) -> tuple[str, float, float]:
        x1, y1 = self.corner(e.src)
        xr = x1 + NODE_W
        d, mx, my = _curve((xr, y1 + 12), (xr + 34, y1 - 4), (xr + 34, y1 + NODE_H + 4), (xr, y1 + NODE_H - 12))
        return d, mx + 12, my

    def forward(self, i: int) -> tuple[str, float, float]:
        """Through the virtual points: vertical inside a layer, an S-curve between layers."""
        e = self.fwd[i]
        pts = [(self.out_port[i], self.corner(e.src)[1] + NODE_H)]
        for v in self.lay.chains.get(i, []):
            top = self.Y[next(k for k, r in self.lay.rows.items() if v in r)]
            pts += [(self.X[v], top), (self.X[v], top + NODE_H)]
        pts.append((self.in_port[i], self.corner(e.dst)[1]))
        segs = []
        for k in range(0, len(pts) - 1):
            (ax, ay), (bx, by) = pts[k], pts[k + 1]
            if k % 2 == 1:         # straight down past a layer, beside its boxes
                segs.append(f"L{bx:.1f},{by:.1f}")
            else:
                dy = max(24.0, (by - ay) * 0.5)
                segs.append(f"C{ax:.1f},{ay + dy:.1f} {bx:.1f},{by - dy:.1f} {bx:.1f},{by:.1f}")
        d = f"M{pts[0][0]:.1f},{pts[0][1]:.1f} " + " ".join(segs)
        # label on the last gap, just above the consumer, where edges fan in least
        (ax, ay), (bx, by) = pts[-2], pts[-1]
        dy = max(24.0, (by - ay) * 0.5)
        return (d, *_bezier_mid((ax, ay), (ax, ay + dy), (bx, by - dy), (bx, by)))

    def back_one_layer(self, e: ViewEdge) -> tuple[str, float, float]:
        """Back edge to the layer just above: from the top of one box to the bottom of the other."""
        (x1, y1), (x2, y2) = self.corner(e.src), self.corner(e.dst)
        p0, p3 = (x1 + NODE_W * 0.88, y1), (x2 + NODE_W * 0.88, y2 + NODE_H)
        dy = (p0[1] - p3[1]) * 0.5
        return _curve(p0, (p0[0], p0[1] - dy), (p3[0], p3[1] + dy), p3)

    def back_long(self, e: ViewEdge) -> tuple[str, float, float]:
        """Longer back edge: out of one side, through a channel beside every layer it spans, into the
        same side; the side where both ends are outermost in their layers, when there is one."""
        (x1, y1), (x2, y2) = self.corner(e.src), self.corner(e.dst)
        real_rows, centre = self.real_rows, self.centre
        ls, ld = self.lay.layer[e.src], self.lay.layer[e.dst]
        span = [v for k in range(min(ls, ld), max(ls, ld) + 1) for v in real_rows[k]]
        outer_r = real_rows[ls][-1] == e.src and real_rows[ld][-1] == e.dst
        outer_l = real_rows[ls][0] == e.src and real_rows[ld][0] == e.dst
        right = outer_r if outer_r != outer_l else self.X[e.src] + self.X[e.dst] >= 2 * centre
        side = "r" if right else "l"
        self.side_count[side] += 1
        sgn = 1 if right else -1
        sx = x1 + NODE_W if right else x1
        dx = x2 + NODE_W if right else x2
        edge_x = max(self.X[v] + NODE_W / 2 for v in span) if right else min(self.X[v] - NODE_W / 2 for v in span)
        channel = edge_x + sgn * (24 + 14 * (self.side_count[side] - 1))
        p0, p3 = (sx, y1 + NODE_H * 0.62), (dx, y2 + NODE_H * 0.38)
        return _curve(p0, (p0[0] + (channel - p0[0]) / 0.75, p0[1]), (p3[0] + (channel - p3[0]) / 0.75, p3[1]), p3)

    def path(self, i: int, e: ViewEdge) -> tuple[str, float, float]:
        """Edge ``i``'s path and the natural place of its label."""
        if e.src == e.dst:
            return self.self_loop(e)
        if i in self.fwd:
            return self.forward(i)
        if self.lay.layer[e.src] - self.lay.layer[e.dst] == 1:
            return self.back_one_layer(e)
        return self.back_long(e)


def _edge_svg(e: ViewEdge, d: str, mx: float, my: float, taken: list[Box]) -> tuple[str, str]:
    """The edge's path and its delay/distance label, placed where it overlaps no box or label."""
    kind = "crosswarp" if e.cross else "blocking" if e.blocking else "plain"
    cls = "edge" + (" carried" if e.distance else "") + (" blocking" if e.blocking else "") + \
          (" crosswarp" if e.cross else "")
    start_marker = ' marker-start="url(#bar)"' if e.blocking else ""
    desc = (f"{e.src} → {e.dst}: delay {e.delay if e.delay is not None else '?'}, distance {e.distance}"
            + (", blocking (the consumer waits on an asynchronous producer)" if e.blocking else "")
            + (", crosses warp groups" if e.cross else ""))
    path = (f'<path class="{cls}" data-src="{esc(e.src)}" data-dst="{esc(e.dst)}" d="{d}" '
            f'marker-end="url(#arr-{kind})"{start_marker}><title>{esc(desc)}</title></path>')
    lab = f"{e.delay if e.delay is not None else '?'}/{e.distance}"
    lcls = "elab" + (" crosswarp" if e.cross else " blocking" if e.blocking else "")
    mx, my = _free_spot(mx, my, len(lab) * 6.0 + 4, 12.0, taken)
    label = (f'<text class="{lcls}" data-src="{esc(e.src)}" data-dst="{esc(e.dst)}" x="{mx:.1f}" '
             f'y="{my + 3.5:.1f}">{esc(lab)}</text>')
    return path, label


def _node_svg(pd: PageData, n: ViewNode, x: float, y: float) -> str:
    c = pd.colour(n)
    name = n.id if len(n.id) <= 20 else n.id[:19] + "…"
    cost = f"{num(n.cycles)} cyc" if n.cycles is not None else f"{n.cost} u"
    sub = f"{n.kind} · {cost}" + (f" · {pd.wg_label(n.wg).split(' ')[0]}" if n.wg is not None else "")
    if len(sub) > 24:   # the colour already names the warp group
        sub = f"{n.kind} · {cost}"
    return (f'<g class="node{" vl" if n.variable_latency else ""}" data-id="{esc(n.id)}" '
            f'data-wg="{"" if n.wg is None else n.wg}">'
            f'<rect class="box" x="{x:.1f}" y="{y:.1f}" width="{NODE_W}" height="{NODE_H}" rx="9" '
            f'fill="{tint(c, 0.72)}" stroke="{c}"/>'
            f'<rect x="{x:.1f}" y="{y + 8:.1f}" width="4" height="{NODE_H - 16}" rx="2" fill="{c}"/>'
            f'<text class="nid" x="{x + NODE_W / 2:.1f}" y="{y + 20:.1f}">{esc(name)}</text>'
            f'<text class="nsub" x="{x + NODE_W / 2:.1f}" y="{y + 37:.1f}">{esc(sub)}</text></g>')


def graph_svg(pd: PageData) -> str:
    """The dependence graph, layered top to bottom; loop-carried edges curve back up the side."""
    ids = [n.id for n in pd.nodes]
    if not ids:
        return '<p class="note">The graph has no nodes.</p>'
    lay = graph_layout(ids, pd.edges)
    carried = [e for e in pd.edges if e.src != e.dst and (e.distance or lay.layer[e.dst] <= lay.layer[e.src])]
    margin = 60 + 16 * min(len(carried), 8)
    lo = min(lay.x[v] - (NODE_W / 2 if not is_virtual(v) else 9) for v in lay.x)
    hi = max(lay.x[v] + (NODE_W / 2 if not is_virtual(v) else 9) for v in lay.x)
    selfloops = any(e.src == e.dst for e in pd.edges)
    width = hi - lo + 2 * margin + (30 if selfloops else 0)
    nl = max(lay.rows) + 1
    height = 30 + nl * NODE_H + (nl - 1) * LAYER_GAP + 30
    fwd = {i: e for i, e in enumerate(pd.edges) if e.src != e.dst and lay.layer[e.dst] > lay.layer[e.src]}
    drawing = _Drawing(lay=lay, X={v: x - lo + margin for v, x in lay.x.items()},
                       Y={k: 30 + k * (NODE_H + LAYER_GAP) for k in lay.rows}, fwd=fwd)
    drawing.spread_ports(ids)
    X, Y = drawing.X, drawing.Y
    taken = [(X[v] - NODE_W / 2, Y[lay.layer[v]], X[v] + NODE_W / 2, Y[lay.layer[v]] + NODE_H) for v in ids]
    edge_svg, label_svg = [], []
    for i, e in enumerate(pd.edges):
        d, mx, my = drawing.path(i, e)
        path, label = _edge_svg(e, d, mx, my, taken)
        edge_svg.append(path)
        label_svg.append(label)
    node_svg = [_node_svg(pd, n, *drawing.corner(n.id)) for n in pd.nodes]
    head = (f'<svg class="graph" width="100%" style="max-width:{width:.0f}px" viewBox="0 0 {width:.0f} {height}" '
            f'xmlns="http://www.w3.org/2000/svg" role="img" aria-label="dependence graph">')
    return "".join([head, _MARKERS] + edge_svg + node_svg + label_svg + ["</svg>"])


def graph_legend(pd: PageData) -> str:
    """Swatches of the warp groups (or the units, without a warp assignment) and of the edge kinds."""
    items = []
    if pd.groups:
        for g in pd.groups:
            c = wg_colour(g, pd.groups, pd.vl_group)
            n = sum(1 for x in pd.nodes if x.wg == g)
            items.append(f'<span><span class="sw" style="background:{tint(c, .72)};border-color:{c}"></span>'
                         f'{esc(pd.wg_label(g))} ({n} ops)</span>')
    else:
        for u, _ in pd.units:
            c = UNIT_COLOUR.get(u, NO_COLOUR)
            items.append(f'<span><span class="sw" style="background:{tint(c, .72)};border-color:{c}"></span>'
                         f'unit {esc(u)}</span>')

    def line(style: str, label: str, marker: str = "") -> str:
        return (f'<span><svg width="34" height="10"><line x1="2" y1="5" x2="32" y2="5" style="{style}"/>{marker}</svg>'
                f'{esc(label)}</span>')
    items += [line("stroke:#8b93a5;stroke-width:1.6", "dependence"),
              line("stroke:#8b93a5;stroke-width:1.6;stroke-dasharray:6 4", "loop-carried (distance ≥ 1)"),
              line("stroke:#c0392b;stroke-width:2", "blocking (waits on async producer)",
                   '<rect x="1" y="1" width="3" height="8" fill="#c0392b"/>'),
              line("stroke:#7b4fb0;stroke-width:2.6", "crosses warp groups"),
              "<span>edge label: delay/distance · node: kind · cost</span>"]
    return '<div class="legend">' + "".join(items) + "</div>"
