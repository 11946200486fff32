"""SVG of the schedule in time: the modulo reservation table and the pipelined timeline."""
from __future__ import annotations

import math

from twill.view.fmt import esc
from twill.view.model import PageData, ViewNode
from twill.view.svg import LEFT, PLOT_W, axis, bar, lanes, row, unit_title


def _folded(a: int, length: int, ii: int) -> list[tuple[int, int]]:
    """The slots [a, a + length) folded onto one II, as at most two runs."""
    if length >= ii:
        return [(0, ii)]
    s = a % ii
    if s + length <= ii:
        return [(s, s + length)]
    return [(s, ii), (0, s + length - ii)]


def _folded_spans(pd: PageData, unit: str) -> list[tuple[float, float, ViewNode]]:
    """Every reservation of ``unit``, once per instance it takes, folded onto one II."""
    spans = []
    for n in pd.nodes:
        if n.start is None:
            continue
        for (u, off, ln, cnt) in n.rrt:
            if u != unit or ln <= 0:
                continue
            for _ in range(max(1, cnt)):
                for a, b in _folded(n.start + off, ln, pd.ii):
                    spans.append((float(a), float(b), n))
    return spans


def mrt_svg(pd: PageData) -> str:
    """The modulo reservation table: one row per unit, every reservation folded onto one II."""
    ii, px, lane_h = pd.ii, PLOT_W / pd.ii, 24
    y, rows = 8.0, []
    for unit, cap in pd.units:
        spans = _folded_spans(pd, unit)
        placed = lanes(spans)
        lane_count = max([cap] + [p[0] + 1 for p in placed])
        busy = sum(b - a for a, b, _ in spans)
        util = busy / (max(cap, 1) * ii)
        bars = []
        for lane, a, b, n in placed:
            stage = (n.start or 0) // ii
            note = f"{unit}: slots {int(a)}–{int(b) - 1} of II = {ii} (stage {stage})"
            bars.append(bar(pd, n, LEFT + a * px, y + 3 + lane * lane_h, (b - a) * px, lane_h - 4, note))
        bars.append(f'<text class="util" x="{LEFT + PLOT_W + 8}" y="{y + 15}">{util:.0%}</text>')
        g, h = row("unit-row", unit, unit, f"×{cap} instance{'s' if cap != 1 else ''}", y, lane_count, lane_h, bars,
                   PLOT_W)
        rows.append(g)
        y += h + 6
    grid = ""
    if px >= 6:
        grid = "".join(f'<line class="gridline" x1="{LEFT + t * px:.1f}" y1="4" x2="{LEFT + t * px:.1f}" y2="{y:.1f}"/>'
                       for t in range(ii + 1))
    ax = axis(LEFT, px, ii, y + 2, 4, unit_title(pd) + f" · slot = t mod II ({ii})")
    height = y + 36
    return (f'<svg class="mrt" width="{LEFT + PLOT_W + 48}" height="{height:.0f}" xmlns="http://www.w3.org/2000/svg">'
            + grid + ax + "".join(rows) + "</svg>")


def _group_rows(pd: PageData, copies: int, px: float, y: float, lane_h: float, end: float) -> tuple[list[str], float]:
    """One row per warp group holding every copy of its ops; the rows and the y below them."""
    rows = []
    for g in pd.groups:
        spans = []
        for n in pd.nodes:
            if n.wg != g or n.start is None:
                continue
            for i in range(copies):
                a = n.start + i * pd.ii
                spans.append((float(a), float(a + max(n.cost, 0)) if n.cost > 0 else a + 3 / px, (n, i)))
        placed = lanes(spans)
        lane_count = max([1] + [p[0] + 1 for p in placed])
        bars = [bar(pd, n, LEFT + a * px, y + 3 + lane * lane_h, (b - a) * px, lane_h - 4,
                    f"iteration {i}, {pd.wg_label(g)}: t = {int(a)}–{int(a) + n.cost}", n.id)
                for lane, a, b, (n, i) in placed]
        count = sum(1 for n in pd.nodes if n.wg == g)
        kind = "loads" if g == pd.vl_group else "compute"
        r, h = row("wg-row", str(g), pd.wg_label(g).split(" ")[0], f"{kind} · {count} ops", y, lane_count, lane_h,
                   bars, end * px)
        rows.append(r)
        y += h + 6
    return rows, y


def _unit_rows(pd: PageData, copies: int, px: float, y: float, lane_h: float, end: float) -> tuple[list[str], float]:
    """One row per functional unit holding every copy of its reservations; the rows and the y below them."""
    rows = []
    for unit, cap in pd.units:
        spans = []
        for n in pd.nodes:
            if n.start is None:
                continue
            for (u, off, ln, cnt) in n.rrt:
                if u == unit and ln > 0:
                    for i in range(copies):
                        for _ in range(max(1, cnt)):
                            spans.append((float(n.start + off + i * pd.ii), float(n.start + off + ln + i * pd.ii),
                                          (n, i)))
        placed = lanes(spans)
        lane_count = max([1] + [p[0] + 1 for p in placed])
        bars = [bar(pd, n, LEFT + a * px, y + 3 + lane * lane_h, (b - a) * px, lane_h - 4,
                    f"iteration {i} on {unit}: t = {int(a)}–{int(b) - 1}", n.id)
                for lane, a, b, (n, i) in placed]
        r, h = row("unit-row", unit, unit, f"unit ×{cap}", y, lane_count, lane_h, bars, end * px)
        rows.append(r)
        y += h + 6
    return rows, y


def _phases_and_iterations(pd: PageData, copies: int, px: float, bottom: float) -> list[str]:
    """The prologue, steady state and epilogue bands, and one bar per staggered iteration above the rows."""
    ii, length = pd.ii, pd.length
    out = []
    pro, steady_end = (copies - 1) * ii, copies * ii
    for a, b, cls, lab in ((0, pro, "pro", "prologue"), (pro, steady_end, "steady", "steady state"),
                           (steady_end, (copies - 1) * ii + length, "epi", "epilogue")):
        if b > a:
            out.append(f'<g class="phase" data-phase="{cls}"><rect class="phase-{cls}" x="{LEFT + a * px:.1f}" y="0" '
                       f'width="{(b - a) * px:.1f}" height="{bottom:.1f}"/>'
                       f'<text class="phase-label" x="{LEFT + (a + b) / 2 * px:.1f}" y="16" text-anchor="middle">'
                       f'{esc(lab)}</text></g>')
    for i in range(copies):
        iy = 26 + i * 16
        a = i * ii
        out.append(f'<g class="iteration" data-iter="{i}"><rect class="iter" x="{LEFT + a * px:.1f}" y="{iy}" '
                   f'width="{length * px:.1f}" height="9" rx="4.5"/>'
                   + "".join(f'<line x1="{LEFT + (a + k * ii) * px:.1f}" y1="{iy}" x2="{LEFT + (a + k * ii) * px:.1f}" '
                             f'y2="{iy + 9}" stroke="#fff" stroke-width="2"/>' for k in range(1, copies))
                   + f'<text class="iter-lab" x="10" y="{iy + 8.5}">iteration {i}</text></g>')
    return out


def timeline_svg(pd: PageData) -> str:
    """ceil(L/II) staggered copies of one iteration: prologue, steady state and epilogue, one row per
    warp group and one per unit."""
    copies = max(1, math.ceil(pd.length / pd.ii))
    end = (copies - 1) * pd.ii + max(pd.length, pd.ii)
    px, lane_h = PLOT_W / end, 22
    head = 34 + copies * 16
    group_rows, y = _group_rows(pd, copies, px, float(head), lane_h, end)
    if pd.groups:
        y += 8
    unit_rows, bottom = _unit_rows(pd, copies, px, y, lane_h, end)
    out = _phases_and_iterations(pd, copies, px, bottom)
    ax = axis(LEFT, px, end, bottom + 2, head - 4, unit_title(pd))
    width = LEFT + end * px + 24
    return (f'<svg class="timeline" width="{width:.0f}" height="{bottom + 36:.0f}" xmlns="http://www.w3.org/2000/svg">'
            + "".join(out) + ax + "".join(group_rows + unit_rows) + "</svg>")
