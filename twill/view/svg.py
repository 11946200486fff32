"""SVG pieces the charts share: the time axis, lanes, and the rows of bars of the reservation table and timeline."""
from __future__ import annotations

from typing import Any

from twill.view.fmt import esc, nice_step, num, tint
from twill.view.model import PageData, ViewNode

PLOT_W = 960          # px of the time axis in the reservation table and the timeline
LEFT = 128            # px for row labels


def axis(x0: float, px: float, t_end: float, y: float, top: float, title: str) -> str:
    """Ticks along a time axis in schedule units, with faint grid lines up to ``top``."""
    step = nice_step(t_end)
    out = ['<g class="axis">']
    t = 0.0
    while t <= t_end + 1e-9:
        x = x0 + t * px
        out.append(f'<line x1="{x:.1f}" y1="{top:.1f}" x2="{x:.1f}" y2="{y:.1f}"/>'
                   f'<text class="tick" x="{x:.1f}" y="{y + 13:.1f}" text-anchor="middle">{num(t)}</text>')
        t += step
    out.append(f'<text class="title" x="{x0 + t_end * px:.1f}" y="{y + 28:.1f}" text-anchor="end">{esc(title)}</text></g>')
    return "".join(out)


def lanes(spans: list[tuple[float, float, Any]]) -> list[tuple[int, float, float, Any]]:
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


def fits(text: str, width: float, size: float = 10.5) -> bool:
    """Whether ``text`` in the bar font fits in ``width`` px (an estimate: no font metrics here)."""
    return len(text) * size * 0.64 + 9 <= width


def unit_title(pd: PageData) -> str:
    if pd.scale != 1.0:
        return f"schedule units (1 unit ≈ {num(pd.scale)} cycles)"
    return "cycles"


def row(kind: str, key: str, label: str, sub: str, y: float, lane_count: int, lane_h: float,
        bars: list[str], width: float) -> tuple[str, float]:
    """A labelled row of ``bars`` at ``y``, and its height."""
    h = max(lane_count * lane_h + 6, 36.0)
    body = [f'<g class="{kind}" data-{kind.split("-")[0]}="{esc(key)}">',
            f'<rect class="lane" x="{LEFT}" y="{y:.1f}" width="{width:.1f}" height="{h:.1f}" rx="4"/>',
            f'<text class="rowlab" x="10" y="{y + 15:.1f}">{esc(label)}</text>',
            f'<text class="rowsub" x="10" y="{y + 29:.1f}">{esc(sub)}</text>']
    return "".join(body + bars) + "</g>", h


def bar(pd: PageData, n: ViewNode, x: float, y: float, w: float, h: float, note: str, label: str = "") -> str:
    """One op's bar, in its colour, labelled when the label fits."""
    c = pd.colour(n)
    w = max(w, 3.0)
    text = label or n.id
    lab = (f'<text class="blab" x="{x + 5:.1f}" y="{y + h / 2 + 3.8:.1f}">{esc(text)}</text>'
           if fits(text, w) else "")
    return (f'<rect class="bar" data-id="{esc(n.id)}" data-note="{esc(note)}" x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" '
            f'height="{h:.1f}" rx="3" fill="{tint(c, .45)}" stroke="{c}"/>{lab}')
