"""SVG charts of memory pressure over the steady state and of measured against predicted latencies."""
from __future__ import annotations

import math
from typing import Callable

from twill.view.fmt import esc, nbytes, nice_step, num, tint
from twill.view.model import MemoryChart, MemorySeries, PageData, ViewNode, measured_iteration, predicted_iteration
from twill.view.svg import PLOT_W, axis


def _step_path(pts: list[tuple[float, float]], t_end: float, x_of: Callable[[float], float],
               y_of: Callable[[float], float]) -> list[str]:
    """Path pieces of a step function: each value held until the next point (the last until ``t_end``)."""
    d = []
    for i, (x, v) in enumerate(pts):
        x_next = pts[i + 1][0] if i + 1 < len(pts) else t_end
        d.append(f"{'M' if i == 0 else 'L'}{x_of(x):.1f},{y_of(v):.1f} L{x_of(x_next):.1f},{y_of(v):.1f}")
    return d


def _legend(series: tuple[MemorySeries, ...], left: float, y: float) -> list[str]:
    out = []
    lx = left + 6
    for s in series:
        label = f"{s.label.split(' ')[0]} {nbytes(max(v for _, v in s.points))}"
        out.append(f'<rect x="{lx}" y="{y - 21}" width="12" height="4" rx="2" fill="{s.colour}"/>'
                   f'<text class="rowsub" x="{lx + 16}" y="{y - 15}">{esc(label)}</text>')
        lx += 16 + len(label) * 5.8 + 16
    return out


def memory_chart_svg(chart: MemoryChart, ii: int) -> str:
    """Bytes live at each slot of the steady state, one line per series, against the limit."""
    series, limit = chart.series, chart.limit
    many = len(series) > 1
    w, h, l, t, b = 540, 214 if many else 200, 64, 46 if many else 30, 34
    pw, ph = w - l - 16, h - t - b
    t_end = float(ii) if ii > 0 else max((p[-1][0] + 1 for p in (s.points for s in series) if p), default=1.0)
    peak = max((v for s in series for _, v in s.points), default=0.0)
    want = max(peak, limit or 0.0) * 1.08 or 1.0
    unit = 1024.0 if want >= 4096 else 1.0
    step = nice_step(want / unit, 4) * unit
    top = step * math.ceil(want / step)

    def x_of(x: float) -> float:
        return l + x / t_end * pw

    def y_of(v: float) -> float:
        return t + ph - v / top * ph
    out = [f'<svg class="memchart" width="{w}" height="{h}" xmlns="http://www.w3.org/2000/svg">',
           f'<text class="rowlab" x="0" y="14">{esc(chart.title)}</text>']
    for k in range(0, int(round(top / step)) + 1):
        v = step * k
        out.append(f'<line class="gridline" x1="{l}" x2="{l + pw}" y1="{y_of(v):.1f}" y2="{y_of(v):.1f}"/>'
                   f'<text class="tick" x="{l - 6}" y="{y_of(v) + 3.5:.1f}" text-anchor="end">{esc(nbytes(v))}</text>')
    for s in series:
        pts = sorted(s.points)
        d = _step_path(pts, t_end, x_of, y_of)
        if not many:        # shading several series would hide one another
            area = f'M{x_of(pts[0][0]):.1f},{y_of(0):.1f} ' + " ".join(x.replace("M", "L", 1) for x in d[:1]) + " " + \
                " ".join(d[1:]) + f' L{x_of(t_end):.1f},{y_of(0):.1f} Z'
            out.append(f'<path d="{area}" fill="{tint(s.colour, .8)}" stroke="none"/>')
        pk = max(v for _, v in pts)
        out.append(f'<path class="area" d="{" ".join(d)}" fill="none" stroke="{s.colour}"><title>{esc(s.label)}: '
                   f'peak {esc(nbytes(pk))}</title></path>')
    if limit:
        out.append(f'<line class="limit" x1="{l}" x2="{l + pw}" y1="{y_of(limit):.1f}" y2="{y_of(limit):.1f}"/>'
                   f'<text class="limit-lab" x="{l + pw}" y="{y_of(limit) - 5:.1f}" text-anchor="end">'
                   f'limit {esc(nbytes(limit))}</text>')
    out.append(axis(l, pw / t_end, t_end, t + ph, t + ph, "slot in the steady state (t mod II)"))
    if many:
        out += _legend(series, l, t)
    out.append("</svg>")
    return "".join(out)


def _iteration_rows(pred_it: float | None, meas_it: float | None, lab_w: float, px: float, rh: float,
                    y: float) -> tuple[list[str], float]:
    """The predicted and measured iteration bars, and the y below them."""
    out = []
    for title, val, colour in (("predicted iteration (II)", pred_it, "#8d99ae"), ("measured iteration", meas_it, "#1d2330")):
        if val:
            out.append(f'<g class="it-row"><text class="rowlab" x="0" y="{y + 14}">{esc(title)}</text>'
                       f'<rect x="{lab_w}" y="{y + 3}" width="{val * px:.1f}" height="{rh - 8}" rx="3" fill="{colour}" '
                       f'fill-opacity="{0.35 if colour != "#1d2330" else 0.85}"/>'
                       f'<text class="rowsub" x="{lab_w + val * px + 6:.1f}" y="{y + 14}">{esc(num(val))} cycles</text></g>')
            y += rh
    return out, y


def _node_row(pd: PageData, n: ViewNode, lab_w: float, px: float, rh: float, y: float) -> str:
    """An op's predicted bar at its scheduled start, with the measured median and p10-p90 whisker over it."""
    c = pd.colour(n)
    x0 = lab_w + n.start * pd.scale * px
    pred_w = (n.cycles or 0) * px
    parts = [f'<g class="meas-row" data-node="{esc(n.id)}"><text class="rowsub" x="0" y="{y + 14}">{esc(n.id)}</text>',
             f'<rect class="bar" data-id="{esc(n.id)}" data-note="predicted {esc(num(n.cycles))} cycles" x="{x0:.1f}" '
             f'y="{y + 3}" width="{max(pred_w, 2):.1f}" height="{rh - 6}" rx="3" fill="{tint(c, .6)}" stroke="{c}"/>']
    if n.measured:
        med, p10, p90, _ = n.measured
        parts.append(f'<rect data-id="{esc(n.id)}" data-note="measured median {esc(num(med))} cycles" x="{x0:.1f}" '
                     f'y="{y + rh / 2 - 2:.1f}" width="{max(med * px, 2):.1f}" height="5" rx="1.5" fill="#1d2330"/>')
        if p10 is not None and p90 is not None:
            parts.append(f'<line x1="{x0 + p10 * px:.1f}" x2="{x0 + p90 * px:.1f}" y1="{y + rh / 2 + .5:.1f}" '
                         f'y2="{y + rh / 2 + .5:.1f}" stroke="#1d2330" stroke-width="1"/>'
                         f'<line x1="{x0 + p90 * px:.1f}" x2="{x0 + p90 * px:.1f}" y1="{y + 6}" y2="{y + rh - 5}" '
                         f'stroke="#1d2330" stroke-width="1"/>')
    parts.append("</g>")
    return "".join(parts)


def measured_svg(pd: PageData) -> str:
    """One iteration in cycles: predicted bars at their scheduled starts, measured medians (with the
    p10-p90 range) over them, and the measured iteration time over the predicted II."""
    nodes = [n for n in pd.nodes if n.start is not None]
    if not nodes:
        return ""
    nodes.sort(key=lambda n: (n.start, n.id))
    pred_it, meas_it = predicted_iteration(pd), measured_iteration(pd)
    ends = [n.start * pd.scale + max(n.cycles or 0, (n.measured or (0,))[0], (n.measured or (0, 0, 0))[2] or 0)
            for n in nodes]
    end = max(ends + [pred_it or 0, meas_it or 0, pd.length * pd.scale]) * 1.03
    lab_w, rh = 170, 22
    px = PLOT_W / end
    out, y = _iteration_rows(pred_it, meas_it, lab_w, px, rh, 10.0)
    y += 8
    for n in nodes:
        out.append(_node_row(pd, n, lab_w, px, rh, y))
        y += rh
    ax = axis(lab_w, px, end, y + 2, 6, "cycles from the start of the iteration")
    return (f'<svg class="measured" width="{lab_w + PLOT_W + 40}" height="{y + 38:.0f}" xmlns="http://www.w3.org/2000/svg">'
            + ax + "".join(out) + "</svg>")
