"""How the page writes numbers, bytes, durations and colours, and escapes text for HTML."""
from __future__ import annotations

import html
import math
from typing import Any

from twill.view.model import to_float


def esc(x: Any) -> str:
    return html.escape(str(x), quote=True)


def num(x: Any, digits: int = 3) -> str:
    """A number with thousands separators and about ``digits`` significant digits; "–" when none."""
    f = to_float(x)
    if f is None:
        return "–"
    if f == int(f) and abs(f) < 1e15:
        return f"{int(f):,}"
    return f"{f:,.{max(0, digits - 1 - int(math.floor(math.log10(abs(f)))) if f else 0)}f}" if abs(f) < 10 ** digits \
        else f"{f:,.0f}"


def nbytes(b: Any) -> str:
    f = to_float(b)
    if f is None:
        return "–"
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if abs(f) >= size:
            v = f / size
            return f"{v:.0f} {unit}" if v == int(v) or v >= 100 else f"{v:.1f} {unit}"
    return f"{f:.0f} B"


def seconds(x: Any) -> str:
    f = to_float(x)
    if f is None:
        return "–"
    return f"{f * 1000:.0f} ms" if f < 1 else f"{f:.2f} s" if f < 100 else f"{f:.0f} s"


def tint(colour: str, amount: float) -> str:
    """``colour`` mixed with white (``amount`` = 1 is white)."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    mix = [round(c + (255 - c) * amount) for c in (r, g, b)]
    return "#" + "".join(f"{c:02x}" for c in mix)


def nice_step(span: float, target: int = 10) -> float:
    """A round tick step (1, 2 or 5 times a power of ten, at least 1) giving about ``target`` ticks over ``span``."""
    if span <= 0:
        return 1.0
    raw = span / target
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * mag >= raw:
            return max(1.0, m * mag)
    return max(1.0, 10 * mag)
