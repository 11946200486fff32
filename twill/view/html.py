"""A self-contained HTML view of a schedule (inline SVG, no scripts from the network): the
dependence graph by warp group, the modulo reservation table, the pipelined timeline and the solver
summary. Hovering an op shows its TTGIR, source line and costs (SVG <title> tooltips)."""
from __future__ import annotations

import html
import json
import math
import os
from pathlib import Path
from typing import Any

PALETTE = ["#e4572e", "#3b8ea5", "#f5b700", "#6a4c93", "#29bf12", "#ff7f50", "#8d99ae", "#2ec4b6"]
KIND_COLOUR = {"dot": "#f4a6c0", "tma_load": "#9bd49b", "load": "#9bd49b", "sfu": "#9ec5f0", "reduce": "#f3d08a",
               "elementwise": "#dedede", "convert": "#d8cff0", "tmem_load": "#f7c59f", "tmem_store": "#f7c59f",
               "store": "#c0c0c0"}


def _e(x: Any) -> str:
    return html.escape(str(x), quote=True)


def _tooltip(n: dict, sched: dict) -> str:
    cyc = (sched.get("cycles") or {}).get(n["id"])
    lines = [f"{n['id']} ({n['kind']}, unit {n['unit']})", f"source line {n.get('line')}",
             f"start {sched['start'].get(n['id'])}, {n.get('cycles')} units" + (f" = {cyc} cycles" if cyc is not None else "")]
    lines += n.get("ir", [])[:8]
    return "\n".join(lines)


def _layers(nodes: list[dict], edges: list[dict]) -> dict[str, int]:
    ids = [n["id"] for n in nodes]
    layer = {i: 0 for i in ids}
    for _ in range(len(ids)):
        changed = False
        for e in edges:
            if e.get("distance", 0) == 0 and e["src"] != e["dst"] and layer[e["dst"]] < layer[e["src"]] + 1:
                layer[e["dst"]] = layer[e["src"]] + 1
                changed = True
        if not changed:
            break
    return layer


def graph_svg(graph: dict, sched: dict) -> str:
    nodes, edges = graph["nodes"], graph["edges"]
    warp = sched.get("warp") or {}
    layer = _layers(nodes, edges)
    rows: dict[int, list[str]] = {}
    for n in nodes:
        rows.setdefault(layer[n["id"]], []).append(n["id"])
    W, H, gx, gy = 150, 44, 30, 40
    width = max(len(r) for r in rows.values()) * (W + gx) + gx
    height = len(rows) * (H + gy) + gy
    pos = {}
    for l, ids in rows.items():
        for j, i in enumerate(ids):
            pos[i] = (gx + j * (W + gx), gy / 2 + l * (H + gy))
    out = [f'<svg class="graph" width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
           '<defs><marker id="arr" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" '
           'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#555"/></marker></defs>']
    cross = {(c["src"], c["dst"]) for c in sched.get("cross_warp") or []}
    for e in edges:
        (x1, y1), (x2, y2) = pos[e["src"]], pos[e["dst"]]
        a = (x1 + W / 2, y1 + H)
        b = (x2 + W / 2, y2)
        cls = "edge" + (" carried" if e.get("distance") else "") + (" blocking" if e.get("blocking") else "") + \
              (" crosswarp" if (e["src"], e["dst"]) in cross else "")
        if e["src"] == e["dst"]:
            d = f"M {x1 + W} {y1 + 10} C {x1 + W + 40} {y1 - 10}, {x1 + W + 40} {y1 + H + 10}, {x1 + W} {y1 + H - 10}"
        elif e.get("distance"):
            d = f"M {x1 + W} {y1 + H / 2} C {x1 + W + 60} {y1}, {x2 + W + 60} {y2 + H}, {x2 + W} {y2 + H / 2}"
        else:
            d = f"M {a[0]} {a[1]} L {b[0]} {b[1]}"
        label = f"d={e.get('delay')}" + (f", dist {e['distance']}" if e.get("distance") else "")
        out.append(f'<path class="{cls}" d="{d}" marker-end="url(#arr)"><title>{_e(e["src"])} -> {_e(e["dst"])}: '
                   f'{_e(label)}{" (blocking)" if e.get("blocking") else ""}</title></path>')
    for n in nodes:
        x, y = pos[n["id"]]
        g = warp.get(n["id"])
        stroke = PALETTE[g % len(PALETTE)] if g is not None else "#444"
        out.append(f'<g class="node" data-id="{_e(n["id"])}" data-wg="{g if g is not None else ""}">'
                   f'<title>{_e(_tooltip(n, sched))}</title>'
                   f'<rect x="{x}" y="{y}" width="{W}" height="{H}" rx="7" fill="{KIND_COLOUR.get(n["kind"], "#fff")}" '
                   f'stroke="{stroke}" stroke-width="{4 if g is not None else 1.5}"/>'
                   f'<text x="{x + W / 2}" y="{y + 18}" class="nid">{_e(n["id"])}</text>'
                   f'<text x="{x + W / 2}" y="{y + 34}" class="nsub">{_e(n["kind"])} · {n.get("cycles")}u'
                   f'{" · WG" + str(g) if g is not None else ""}</text></g>')
    out.append("</svg>")
    return "\n".join(out)


def timeline_svg(graph: dict, sched: dict, per_unit: bool) -> str:
    """Staggered copies (prologue / steady state / epilogue) by unit, or the modulo table (one II)."""
    ii, L = sched["ii"], sched["length"]
    copies = max(1, math.ceil(L / ii))
    nodes = {n["id"]: n for n in graph["nodes"]}
    units = sorted({r["unit"] for n in graph["nodes"] for r in n.get("rrt", [])})
    warp = sched.get("warp") or {}
    rows = [("unit", u) for u in units] + ([("wg", g) for g in sorted(set(warp.values()))] if per_unit else [])
    span = ii if not per_unit else (copies - 1) * ii + L
    px = 900 / max(1, span)
    rh, left = 26, 90
    height = len(rows) * rh + 40
    out = [f'<svg class="{"timeline" if per_unit else "mrt"}" width="{left + 920}" height="{height}">']
    if per_unit:
        pro = (copies - 1) * ii
        for x0, x1, lab, cls in ((0, pro, "prologue", "pro"), (pro, pro + ii, "steady state", "steady"),
                                 (pro + ii, span, "epilogue", "epi")):
            if x1 > x0:
                out.append(f'<rect class="{cls}" x="{left + x0 * px}" y="0" width="{(x1 - x0) * px}" height="{height}"/>'
                           f'<text class="phase" x="{left + x0 * px + 4}" y="{height - 6}">{lab}</text>')
    for j, (kind, name) in enumerate(rows):
        y = 10 + j * rh
        out.append(f'<text class="rowlab" x="4" y="{y + 17}">{"WG" + str(name) if kind == "wg" else name}</text>')
        for i in range(copies if per_unit else 1):
            for nid, t in sched["start"].items():
                n = nodes.get(nid)
                if n is None:
                    continue
                spans = []
                if kind == "unit":
                    spans = [(t + r["offset"], r["length"]) for r in n.get("rrt", []) if r["unit"] == name]
                elif warp.get(nid) == name:
                    spans = [(t, max(1, n.get("cycles") or 1))]
                for s0, ln in spans:
                    s0 += i * ii
                    pieces = [(s0, ln)] if per_unit else [((s0 + c) % ii, 1) for c in range(ln)]
                    if not per_unit:   # merge the folded unit-cycles into runs
                        cells = sorted(p[0] for p in pieces)
                        pieces, start, prev = [], cells[0], cells[0]
                        for c in cells[1:] + [None]:
                            if c is None or c != prev + 1:
                                pieces.append((start, prev - start + 1))
                                start = c
                            prev = c if c is not None else prev
                    for a, ln2 in pieces:
                        colour = PALETTE[i % len(PALETTE)] if per_unit else KIND_COLOUR.get(n["kind"], "#ccc")
                        out.append(f'<rect class="op" data-id="{_e(nid)}" x="{left + a * px}" y="{y}" width="{max(1, ln2 * px)}" '
                                   f'height="{rh - 6}" fill="{colour}" fill-opacity="0.8"><title>{_e(nid)} (iteration {i}) '
                                   f'at {a}, {ln2} units</title></rect>')
    out.append("</svg>")
    return "\n".join(out)


CSS = """
body{font:14px/1.45 -apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:28px;color:#222;background:#fafafa}
h1{font-weight:600;margin:0 0 4px} h2{font-weight:600;margin:28px 0 8px;font-size:17px}
.card{background:#fff;border:1px solid #e3e3e3;border-radius:10px;padding:16px;overflow-x:auto}
table.sum td{padding:2px 14px 2px 0} .k{color:#777}
.edge{fill:none;stroke:#777;stroke-width:1.3}.edge.carried{stroke-dasharray:5 4}.edge.blocking{stroke:#b00;stroke-width:2.2}
.edge.crosswarp{stroke:#6a4c93;stroke-width:2.6}
.nid{font-weight:600;font-size:12px;text-anchor:middle}.nsub{font-size:11px;fill:#555;text-anchor:middle}
.rowlab{font-size:12px;fill:#333}.phase{font-size:11px;fill:#777}
.pro{fill:#eef5ff}.steady{fill:#fff4e0}.epi{fill:#eefaf0}
"""


def render_html(schedule: dict, graph: dict, profile: dict | None = None, validation: dict | None = None) -> str:
    """One self-contained page for ``schedule`` (twill.schedule/1) over ``graph`` (twill.graph/1)."""
    g = schedule.get("graph") or graph
    s = schedule
    rows = [("II", f"{s['ii']} units (~{s['ii'] * (s.get('normalization') or {}).get('scale', 1):.0f} cycles)"),
            ("length L", s["length"]), ("stages", s["stages"]), ("status", s["status"]),
            ("lower bound", s.get("lower_bound")), ("backend", s.get("backend")),
            ("solve time", f"{s.get('solve_seconds', 0):.2f} s"),
            ("phases", ", ".join(f"{k} {v:.2f}s" for k, v in (s.get("phases") or {}).items()))]
    if s.get("warp"):
        rows.append(("warp groups", ", ".join(f"WG{w}: {n}" for w, n in sorted(
            (w, sum(1 for x in s["warp"].values() if x == w)) for w in set(s["warp"].values())))))
    summary = "".join(f"<tr><td class=k>{_e(k)}</td><td>{_e(v)}</td></tr>" for k, v in rows)
    trace = s.get("search") or (s.get("joint") or {}).get("search") or s.get("trace") or []
    trace_rows = "".join(f"<tr><td>{_e(t.get('ii'))}</td><td>{_e(t.get('length'))}</td><td>{_e(t.get('result'))}</td>"
                         f"<td>{_e(t.get('seconds'))}</td></tr>" for t in trace[:60])
    measured = ""
    if profile or validation:
        measured = f"<h2>Measured</h2><div class=card><pre>{_e(json.dumps({'profile': profile, 'validation': validation}, indent=1)[:4000])}</pre></div>"
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>twill: {_e(s.get('kernel', g.get('name')))}</title>
<style>{CSS}</style></head><body>
<h1>{_e(s.get('kernel', g.get('name')))} on {_e(s.get('arch', '?'))}</h1>
<div class=k>twill schedule · triton {_e(s.get('triton_version', '?'))}</div>
<h2>Solver summary</h2><div class=card><table class=sum>{summary}</table></div>
<h2>Dependence graph (node border: warp group; dashed: loop-carried; red: blocking; purple: cross-warp)</h2>
<div class=card>{graph_svg(g, s)}</div>
<h2>Modulo reservation table (one II)</h2><div class=card>{timeline_svg(g, s, per_unit=False)}</div>
<h2>Pipelined timeline: {max(1, math.ceil(s['length'] / s['ii']))} staggered copies</h2>
<div class=card>{timeline_svg(g, s, per_unit=True)}</div>
<h2>Search trace</h2><div class=card><table class=sum><tr><td class=k>II</td><td class=k>L</td><td class=k>result</td>
<td class=k>seconds</td></tr>{trace_rows}</table></div>{measured}
</body></html>
"""


def write_html(path: str | Path, schedule: dict, graph: dict, **kw: Any) -> Path:
    p = Path(path)
    tmp = p.with_name(f".{p.name}.tmp{os.getpid()}")
    tmp.write_text(render_html(schedule, graph, **kw))
    tmp.replace(p)
    return p
