"""Parse a Proton chrome trace (triton 3.6 instrumentation, granularity=warp, metric cycle) into records."""
from __future__ import annotations

import gzip
import json
import re
from dataclasses import dataclass
from pathlib import Path

from twill.errors import ProfileError

_CTA = re.compile(r"Core(\d+)\s+CTA(\d+)\s*$")
_WARP = re.compile(r"warp (\d+)")


@dataclass(frozen=True)
class Event:
    """One region instance on one warp: start and duration in cycles (Proton writes cycles/1000 as us)."""

    name: str
    sm: int
    cta: int
    warp: int
    start: int
    cycles: int


def load_trace(path: str | Path) -> list[Event]:
    """Events of a ``.chrome_trace`` / ``.json`` / ``.gz`` file, sorted by (cta, warp, start)."""
    p = Path(path)
    try:
        raw = gzip.open(p, "rt").read() if p.suffix == ".gz" else p.read_text()
        data = json.loads(raw)
    except (OSError, json.JSONDecodeError) as e:
        raise ProfileError("unreadable Proton trace", where=str(path), expected="a chrome trace JSON",
                           found=f"{type(e).__name__}: {e}") from None
    evs = data.get("traceEvents", []) if isinstance(data, dict) else data
    out: list[Event] = []
    for e in evs:
        if not isinstance(e, dict) or e.get("ph") != "X":
            continue
        mc, mw = _CTA.search(str(e.get("pid", ""))), _WARP.search(str(e.get("tid", "")))
        if not (mc and mw):
            continue
        # 3.6 writer: ts and dur are cycles / 1000 ("1 GHz"): back to integer cycles
        out.append(Event(str(e["name"]), int(mc.group(1)), int(mc.group(2)), int(mw.group(1)),
                         round(float(e["ts"]) * 1000), round(float(e["dur"]) * 1000)))
    if not out:
        raise ProfileError("no region events in the trace", where=str(path),
                           expected="events with pid '<kernel> Core<n> CTA<n>' and tid 'warp <n>'", found="none")
    out.sort(key=lambda x: (x.cta, x.warp, x.start))
    return out
