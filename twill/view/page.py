"""The schedule page: its sections and hover data in the page.html template, with view.css and view.js."""
from __future__ import annotations

import json
import os
from pathlib import Path
from string import Template
from typing import Any

from twill.util import atomic_write
from twill.view.fmt import esc, nbytes, num
from twill.view.model import PageData, ViewNode, memory_charts, page_data
from twill.view.sections import (graph_section, header, measured_section, memory_section, mrt_section,
                                 no_schedule_section, partition_section, summary_section, timeline_section)

_ASSETS = Path(__file__).resolve().parent


def _asset(name: str) -> str:
    return (_ASSETS / name).read_text(encoding="utf-8")


def _node_tip(pd: PageData, n: ViewNode) -> dict[str, Any]:
    """What the hover tooltip shows of one op, as text."""
    start = None
    if n.start is not None and pd.ii > 0:
        start = f"t = {n.start}" + (f" (≈ {num(n.start * pd.scale)} cycles)" if pd.scale != 1.0 else "") + \
            f", stage {n.start // pd.ii}, slot {n.start % pd.ii} of {pd.ii}"
    if pd.scale == 1.0:
        cost = f"{num(n.cycles if n.cycles is not None else n.cost)} cycles"
    else:
        cost = f"{n.cost} units" + (f" ≈ {num(n.cycles)} cycles" if n.cycles is not None else "")
    if n.cost_source:
        cost += f" ({n.cost_source})"
    if n.rrt:
        cost += "; holds " + ", ".join(f"{u}×{c} for {ln} from +{off}" for u, off, ln, c in n.rrt)
    meas = None
    if n.measured:
        med, p10, p90, cnt = n.measured
        meas = f"median {num(med)} cycles" + (f" (p10 {num(p10)}, p90 {num(p90)})" if p10 is not None else "") + \
            (f", {cnt} samples" if cnt else "")
    memory = ", ".join(f"{k} {nbytes(v)}" for k, v in (("regs", n.regs), ("smem", n.smem), ("tmem", n.tmem)) if v)
    src = f"{os.path.basename(n.file) if n.file else '?'}:{n.line}" if n.line is not None else None
    return {"kind": n.kind, "unit": n.unit, "wg": n.wg, "wg_label": pd.wg_label(n.wg), "colour": pd.colour(n),
            "start_text": start, "cost_text": cost, "measured_text": meas, "memory_text": memory or None,
            "source": src, "ops": ", ".join(n.ops) or None, "ir": [line.strip() for line in n.ir][:16]}


def tooltip_data(pd: PageData) -> dict[str, Any]:
    """The JSON the page's script reads to fill the hover tooltip."""
    return {"nodes": {n.id: _node_tip(pd, n) for n in pd.nodes}}


def _sections(pd: PageData) -> list[str]:
    body = [header(pd), graph_section(pd)]
    if pd.scheduled:
        body += [mrt_section(pd), timeline_section(pd)]
    else:
        body.append(no_schedule_section(pd))
    charts = memory_charts(pd) if pd.scheduled else []
    if charts:
        body.append(memory_section(charts, pd.ii))
    return body + [measured_section(pd), partition_section(pd), summary_section(pd)]


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
    # Escaped so that no string in the data can end the <script> element that holds it.
    data = json.dumps(tooltip_data(pd)).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    title = f"twill · {pd.name}" + (f" on {pd.arch}" if pd.arch else "")
    return Template(_asset("page.html")).substitute(title=esc(title), css=_asset("view.css"),
                                                    body="\n".join(_sections(pd)), data=data, script=_asset("view.js"))


def write_html(path: str | Path, schedule: dict[str, Any], graph: dict[str, Any] | None = None,
               profile: dict[str, Any] | None = None, validation: dict[str, Any] | None = None) -> Path:
    """Render the page and write it to ``path`` atomically (a temporary file, then a rename).

    Examples
    --------
    >>> write_html("twill-out/fa3-h100/schedule.html", sched, graph)   # doctest: +SKIP
    PosixPath('twill-out/fa3-h100/schedule.html')
    """
    return atomic_write(path, render_html(schedule, graph, profile, validation))
