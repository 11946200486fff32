"""The page's sections as HTML: header, graph, reservation table, timeline, memory, measurements, solver."""
from __future__ import annotations

import math
from typing import Any

from twill.view.charts import measured_svg, memory_chart_svg
from twill.view.fmt import esc, nbytes, num, seconds
from twill.view.model import MemoryChart, PageData, as_dict, measured_iteration, predicted_iteration, to_float
from twill.view.svg_graph import graph_legend, graph_svg
from twill.view.svg_schedule import mrt_svg, timeline_svg

_PHASE_COLOURS = ("#4C78A8", "#F58518", "#54A24B", "#B279A2", "#E45756", "#72B7B2", "#EECA3B", "#9D755D")
_TRACE_ROWS = 80      # a longer search trace is cut, as a page of thousands of rows helps no one


def _metric_cards(cards: list[tuple[str, str, str]]) -> str:
    """Cards of (key, value html, detail); the value is already escaped."""
    return '<div class="metrics">' + "".join(
        f'<div class="metric"><div class="k">{esc(k)}</div><div class="v">{v}</div><div class="d">{esc(d)}</div></div>'
        for k, v, d in cards) + "</div>"


def header(pd: PageData) -> str:
    """The kernel's name, the solver's status and the schedule's key numbers."""
    s = pd.schedule
    mii = as_dict(s.get("mii"))
    sub = " · ".join(x for x in (f"{len(pd.nodes)} ops, {len(pd.edges)} edges",
                                 f"machine {s['machine']}" if s.get("machine") else "",
                                 f"Triton {s['triton_version']}" if s.get("triton_version") else "",
                                 str(s.get("backend") or "")) if x)
    on = f' <span class="on">on {esc(pd.arch)}</span>' if pd.arch else ""

    def cyc(u: int) -> str:
        return f"≈ {num(u * pd.scale)} cycles" if pd.scale != 1.0 else "cycles"
    cards = [("initiation interval", f"{num(pd.ii)}", cyc(pd.ii)),
             ("schedule length", f"{num(pd.length)}", cyc(pd.length)),
             ("stages", f"{num(pd.stages)}", "ceil(L / II)"),
             ("lower bound", f"{num(s.get('lower_bound'))}",
              f"res {mii.get('res_mii')} · rec {mii.get('rec_mii')}" if mii else "on II"),
             ("warp groups", f"{len(pd.groups)}" if pd.groups else "–",
              f"{len(s.get('cross_warp') or [])} cross-warp edges" if pd.groups else "modulo schedule only"),
             ("solve time", esc(seconds(s.get("solve_seconds"))), str(s.get("backend") or ""))]
    return (f'<header class="top"><div><h1>{esc(pd.name)}{on}</h1><div class="sub">{esc(sub)}</div></div>'
            f'<div><span class="badge {esc(pd.status)}">{esc(pd.status)}</span></div></header>' + _metric_cards(cards))


def graph_section(pd: PageData) -> str:
    return ('<section class="card" id="graph"><h2>Dependence graph</h2>'
            '<p class="lede">Layers follow the dependences within one iteration; loop-carried edges curve back up '
            'the side. Colour is the warp group' + ("" if pd.groups else " (here: the functional unit, as there is no "
                                                     "warp assignment)") + '. Hover an op for its TTGIR.</p>'
            + graph_legend(pd) + f'<div class="scroll">{graph_svg(pd)}</div></section>')


def mrt_section(pd: PageData) -> str:
    return (f'<section class="card" id="mrt"><h2>Modulo reservation table</h2><p class="lede">Every unit over one '
            f'initiation interval (II = {pd.ii} {units(pd)}): each reservation sits at its start time modulo II, so this is the '
            f'steady state of the loop. The share of the II each unit is busy is on the right.'
            + (f' Never reserved: {esc(", ".join(pd.idle_units))}.' if pd.idle_units else "") + '</p>'
            f'<div class="scroll">{mrt_svg(pd)}</div></section>')


def units(pd: PageData) -> str:
    """What the page's times count: schedule units (and how many cycles one is), or cycles."""
    return f"units, 1 unit ≈ {num(pd.scale)} cycles" if pd.scale != 1.0 else "cycles"


def timeline_section(pd: PageData) -> str:
    copies = max(1, math.ceil(pd.length / pd.ii))
    return (f'<section class="card" id="timeline"><h2>Pipelined timeline</h2><p class="lede">{copies} staggered '
            f'cop{"y" if copies == 1 else "ies"} of one iteration (length L = {pd.length} {units(pd)}), each starting '
            f'II = {pd.ii} {units(pd)} '
            'after the previous: the prologue fills the pipeline, the steady state repeats, the epilogue drains it. '
            f'One row per warp group and one per functional unit.</p>'
            f'<div class="scroll">{timeline_svg(pd)}</div></section>')


def no_schedule_section(pd: PageData) -> str:
    return (f'<section class="card" id="noschedule"><h2>No schedule</h2><p class="lede">The solver ended with '
            f'status <b>{esc(pd.status)}</b>; the search trace below shows what was tried.</p></section>')


def memory_section(charts: list[MemoryChart], ii: int) -> str:
    return ('<section class="card" id="memory"><h2>Memory pressure</h2><p class="lede">Bytes live at each slot '
            'of the steady state (all overlapping iterations counted) against the limit the solver was given.</p>'
            '<div class="cols">' + "".join(f"<div>{memory_chart_svg(c, ii)}</div>" for c in charts)
            + "</div></section>")


# ----------------------------------------------------------------------------------------------
# Measured against predicted
# ----------------------------------------------------------------------------------------------
def _speed_cards(v: dict[str, Any]) -> list[tuple[str, str, str]]:
    """twill's throughput against Triton's own, or the record's plain throughput and speedup."""
    cards: list[tuple[str, str, str]] = []
    sp = as_dict(v.get("speed"))
    unit = str(sp.get("unit") or "TFLOP/s")
    for key, title, detail in (("twill", "twill", f"streaming depth {sp.get('twill_depth')}"),
                               ("triton_default", "Triton default", "same tile sizes"),
                               ("triton_best", "Triton best", str(sp.get("triton_best_config") or ""))):
        if to_float(sp.get(key)) is not None:
            cards.append((title, f"{num(sp[key])} <small>{esc(unit)}</small>", detail))
    if not sp and to_float(v.get("tflops")) is not None:
        cards.append(("throughput", f"{num(v['tflops'])} <small>TFLOP/s</small>", str(v.get("problem", ""))[:60]))
    for k in ("baseline_tflops", "speedup") if not sp else ("speedup",):
        if to_float(v.get(k)) is not None:
            cards.append((k.replace("_", " "), num(v[k]), "over Triton default" if k == "speedup" else ""))
    return cards


def _validation_cards(v: dict[str, Any]) -> list[tuple[str, str, str]]:
    """Cards of a ``twill validate`` record: correctness, speed against Triton's own, critical path."""
    cards: list[tuple[str, str, str]] = []
    c = as_dict(v.get("correctness"))
    if "pass" in c:
        err = to_float(c.get("max_rel_err_reference"))
        cards.append(("correctness", "PASS" if c["pass"] else "FAIL",
                      f"rel. error {err:.1e} vs reference" if err is not None else ""))
    cards += _speed_cards(v)
    cp = as_dict(v.get("critical_path"))
    if to_float(cp.get("measured_cycles")) is not None and to_float(cp.get("predicted_cycles")):
        path = [str(x) for x in cp.get("nodes") or []]
        ends = path if len(path) <= 2 else [path[0], "…", path[-1]]
        cards.append(("critical path", f"{num(cp['measured_cycles'])} <small>/ {num(cp['predicted_cycles'])} cycles</small>",
                      f"measured / predicted ({float(cp['measured_cycles']) / float(cp['predicted_cycles']) - 1:+.1%}), "
                      + " → ".join(str(x) for x in ends)))
    return cards


def _iteration_cards(pd: PageData) -> list[tuple[str, str, str]]:
    """The predicted iteration, and the measured one (and its uninstrumented estimate) against it."""
    pred_it, meas_it = predicted_iteration(pd), measured_iteration(pd)
    cards = [("predicted iteration", f"{num(pred_it)} <small>cycles</small>", "II × cycles per unit")]
    v = pd.validation or {}
    if meas_it:
        err = (meas_it - pred_it) / pred_it if pred_it else None
        every = int(to_float(v.get("profile_recorded_every")) or 1)
        runs = (f"; {v['profile_runs']} runs of a few regions" + (f", each recording one iteration in {every}"
                if every > 1 else "") + f", each at most x{v['profile_overhead']:.3f} the plain kernel"
                if v.get("profile_runs") and to_float(v.get("profile_overhead")) else "")
        cards.append(("measured iteration", f"{num(meas_it)} <small>cycles</small>",
                      (f"{err:+.1%} against the prediction" if err is not None else "") + runs))
    cal = to_float(v.get("calibrated_iteration_cycles"))
    if cal:
        cards.append(("calibrated replay", f"{num(cal)} <small>cycles</small>",
                      "the kernel replayed with the costs fitted on profiles" +
                      (" (held out)" if as_dict(v.get("calibrated")).get("held_out") else "")))
    seen = to_float(as_dict(as_dict(v.get("calibrated")).get("seen")).get("cycles"))
    if seen:
        cards.append(("calibrated, earlier runs in the fit", f"{num(seen)} <small>cycles</small>",
                      "fitted on this kernel's earlier runs too (never on this one)"))
    loop = to_float(v.get("measured_loop_iteration_cycles"))
    if loop and pred_it:
        over = to_float(v.get("loop_run_overhead"))
        err_cal = f", {(loop - cal) / cal:+.1%} against the calibrated replay" if cal else ""
        cards.append(("loop run", f"{num(loop)} <small>cycles</small>",
                      f"no record inside a loop (x{over:.3f} the plain kernel): {(loop - pred_it) / pred_it:+.1%} "
                      f"against the prediction{err_cal}" if over else f"{(loop - pred_it) / pred_it:+.1%}{err_cal}"))
    if to_float(v.get("measured_iteration_cycles_uninstrumented")) is not None and pred_it:
        est = float(v["measured_iteration_cycles_uninstrumented"])
        cards.append(("uninstrumented (est.)", f"{num(est)} <small>cycles</small>",
                      f"{(est - pred_it) / pred_it:+.1%}, by the timing ratio"))
    return cards


def _per_node_table(pd: PageData) -> str:
    meas = [n for n in pd.nodes if n.measured]
    if not meas:
        return ""
    body = "".join(
        f'<tr><td>{esc(n.id)}</td><td class="num">{esc(num(n.cycles))}</td><td class="num">{esc(num(n.measured[0]))}</td>'
        f'<td class="num">{esc(num(n.measured[1]))}–{esc(num(n.measured[2]))}</td>'
        f'<td class="num">{esc(n.measured[3] if n.measured[3] is not None else "–")}</td>'
        f'<td class="num">{((n.measured[0] - n.cycles) / n.cycles if n.cycles else 0):+.0%}</td></tr>'
        for n in meas if n.measured)
    return (f'<details><summary>per-node table ({len(meas)} ops, cycles)</summary><table class="grid"><tr><th>node</th>'
            '<th class="num">predicted</th><th class="num">measured median</th><th class="num">p10–p90</th>'
            f'<th class="num">samples</th><th class="num">error</th></tr>{body}</table></details>')


_CHAIN = (("busy", "#4C78A8", "busy (its ops)"), ("wait_tensor_core", "#F58518", "waiting on its wgmmas"),
          ("wait_loads", "#72B7B2", "waiting on its pointer loads"), ("wait_rings", "#BAB0AC", "waiting on the rings"),
          ("in_gaps", "#B279A2", "between the regions (arrives; timed by a profile of sums)"),
          ("outside", "#E45756", "outside every region"))


def _chain_bar(p: dict[str, Any], scale: float, label: str) -> str:
    """One stacked bar: a partition's period as busy, waits on its wgmmas, waits on the rings, and what no
    region covers."""
    x, segs = 0.0, []
    for key, colour, what in _CHAIN:
        v = to_float(p.get(key)) or 0.0
        w = max(0.0, v * scale)
        segs.append(f'<rect x="{x:.1f}" y="0" width="{w:.1f}" height="12" fill="{colour}"><title>{esc(label)}: '
                    f'{esc(what)} {esc(num(v))} cycles</title></rect>')
        x += w
    return (f'<svg width="{max(x, 1):.0f}" height="12" class="chain">' + "".join(segs) + "</svg> "
            f'<small>{esc(num(p.get("period")))}</small>')


def partition_section(pd: PageData) -> str:
    """A Gluon kernel's validation, per partition: the predicted period (the replay with the solver's costs) and
    the measured one, each as busy / waits on its own wgmmas / waits on the rings; the critical path both ways;
    per node, predicted against measured cycles."""
    v = pd.validation or {}
    parts = [p for p in v.get("partitions") or [] if isinstance(p, dict)]
    if not parts:
        return ""
    top = max([to_float(as_dict(p.get(k)).get("period")) or 0.0 for p in parts
               for k in ("predicted", "calibrated", "measured")] + [1.0])
    scale = 520.0 / top
    rows = []
    for p in parts:
        pr, m, cal = as_dict(p.get("predicted")), as_dict(p.get("measured")), as_dict(p.get("calibrated"))
        err = to_float(p.get("period_error"))
        calibrated = f'calibrated {_chain_bar(cal, scale, "calibrated")}<br>' if cal.get("period") is not None else ""
        rows.append(f'<tr><td>{esc(p.get("function"))}<br><small>{esc(p.get("num_warps"))} warps</small></td>'
                    f'<td>predicted {_chain_bar(pr, scale, "predicted")}<br>{calibrated}'
                    f'measured {_chain_bar(m, scale, "measured")}</td>'
                    f'<td class="num">{"" if err is None else f"{err:+.1%}"}</td></tr>')
    legend = "".join(f'<span><span class="sw" style="background:{c};border-color:{c}"></span>{esc(w)}</span>'
                     for _, c, w in _CHAIN)
    nodes = "".join(
        f'<tr><td>{esc(p.get("function"))}</td><td>{esc(n)}</td><td class="num">{esc(num(x.get("predicted_cycles")))}</td>'
        f'<td class="num">{esc(num(x.get("measured_cycles")))}</td></tr>'
        for p in parts for n, x in sorted(as_dict(p.get("nodes")).items()))
    cp = as_dict(v.get("critical_path"))
    return ('<section class="card" id="partitions"><h2>Per partition: measured against predicted</h2>'
            '<p class="lede">Each partition\'s cycles per iteration: busy issuing its ops, waiting on its own wgmmas, '
            'waiting on the rings (the other partitions). Predicted: the generated kernel replayed with the costs the '
            'solver used; calibrated: replayed with the costs fitted from profiles (the machine\'s calibration '
            'file, held out where it saw this kernel); measured: Proton regions (or region sums, `twill validate '
            '--sums`) per partition, each run\'s period over its overhead.</p>'
            f'<div class="legend">{legend}</div><table class="grid"><tr><th>partition</th><th>per iteration (cycles)</th>'
            f'<th class="num">period error</th></tr>{"".join(rows)}</table>'
            f'<p><b>Critical path.</b> {esc(cp.get("explanation", ""))}</p>'
            f'<details><summary>per node (cycles per iteration, net of the record cost)</summary><table class="grid">'
            f'<tr><th>partition</th><th>node</th><th class="num">predicted</th><th class="num">measured</th></tr>{nodes}'
            f'</table></details>{_stalls_table(as_dict(v.get("stalls")))}</section>')


def _stalls_table(st: dict[str, Any]) -> str:
    """Where each partition's time goes by PC sampling (``profiling.stalls``): its causes, the share on lines
    outside every region, its costliest instructions."""
    parts = [p for p in st.get("partitions") or [] if isinstance(p, dict)]
    if not parts:
        return ""
    rows = "".join(
        f'<tr><td>{esc(p.get("function"))}</td><td>{esc(", ".join(f"{c} {to_float(x) or 0:.0%}" for c, x in list(as_dict(p.get("causes")).items())[:8]))}</td>'
        f'<td class="num">{to_float(p.get("outside")) or 0:.0%}</td></tr>' for p in parts)
    top = "".join(
        f'<tr><td>{esc(p.get("function"))}</td><td class="num">{esc(t.get("line"))}</td><td><code>{esc(t.get("sass"))}</code></td>'
        f'<td>{esc(t.get("reason"))}</td><td class="num">{to_float(t.get("share")) or 0:.1%}</td>'
        f'<td><code>{esc((t.get("waits_on") or {}).get("sass", ""))}</code></td></tr>'
        for p in parts for t in p.get("top") or [] if isinstance(t, dict))
    return ('<h3>Sampled (ncu PC sampling): where each partition\'s time goes</h3><p class="lede">A sample stalled on a '
            'scoreboard or a partition barrier is charged to the instruction it waits for (a load, a spill reload, an '
            f'atomic still reading its registers, the BAR.SYNC). {esc(st.get("samples"))} samples, {esc(st.get("gpu"))}.</p>'
            '<table class="grid"><tr><th>partition</th><th>causes (share of its time)</th><th class="num">outside every '
            f'region</th></tr>{rows}</table><details><summary>costliest instructions</summary><table class="grid"><tr>'
            '<th>partition</th><th class="num">line</th><th>SASS</th><th>stall</th><th class="num">share</th>'
            f'<th>waits on</th></tr>{top}</table></details>')


def measured_section(pd: PageData) -> str:
    """Measured against predicted, when there is a profile or a validation record; else nothing."""
    if not (pd.profile or pd.validation):
        return ""
    cards = _iteration_cards(pd) + _validation_cards(pd.validation or {})
    return ('<section class="card" id="measured"><h2>Measured against predicted</h2>'
            '<p class="lede">Bars: the predicted latency of each op at its scheduled start. Dark line: the measured median '
            '(whisker to the 90th percentile). Top: the measured iteration time over the predicted II.</p>'
            + _metric_cards(cards) + f'<div class="scroll">{measured_svg(pd)}</div>{_per_node_table(pd)}</section>')


# ----------------------------------------------------------------------------------------------
# Solver summary and search trace
# ----------------------------------------------------------------------------------------------
def _phase_bar(phases: dict[str, Any]) -> str:
    items = [(k, to_float(v) or 0.0) for k, v in phases.items() if to_float(v) is not None]
    total = sum(v for _, v in items)
    if total <= 0:
        return ""
    w, x, segs, legend = 900.0, 0.0, [], []
    for i, (k, v) in enumerate(items):
        c = _PHASE_COLOURS[i % len(_PHASE_COLOURS)]
        segs.append(f'<rect x="{x:.1f}" y="0" width="{max(v / total * w, 0.5):.1f}" height="16" fill="{c}">'
                    f'<title>{esc(k)}: {esc(seconds(v))}</title></rect>')
        x += v / total * w
        legend.append(f'<span><span class="sw" style="background:{c};border-color:{c}"></span>'
                      f'{esc(k)} {esc(seconds(v))}</span>')
    return (f'<h3>Time per phase ({esc(seconds(total))} in all)</h3><svg width="100%" height="16" class="phases" '
            f'viewBox="0 0 {w:.0f} 16" preserveAspectRatio="none">'
            + "".join(segs) + '</svg><div class="legend">' + "".join(legend) + "</div>")


def _result(t: dict[str, Any]) -> str:
    return str(t.get("result", t.get("status", "?")))


def _trace_rows(rows: list[dict[str, Any]]) -> str:
    body = []
    for t in rows[:_TRACE_ROWS]:
        res = _result(t)
        ln = t.get("length")
        ln = f"{ln[0]}–{ln[1]}" if isinstance(ln, list) and len(ln) == 2 else ln
        found = t.get("found_length")
        body.append(f'<tr><td class="num">{esc(t.get("ii"))}</td><td class="num">{esc(ln if ln is not None else "–")}'
                    f'{esc(f" → {found}") if found is not None else ""}</td>'
                    f'<td><span class="chip {esc(res)}">{esc(res)}</span></td>'
                    f'<td class="num">{esc(seconds(t.get("seconds")))}</td></tr>')
    more = f'<p class="note">… and {len(rows) - _TRACE_ROWS} more</p>' if len(rows) > _TRACE_ROWS else ""
    return (f'<table class="grid trace"><tr><th class="num">II</th><th class="num">L</th>'
            f'<th>result</th><th class="num">time</th></tr>{"".join(body)}</table>{more}')


def _trace_table(title: str, trace: list[Any]) -> str:
    """The attempts of a search: a table when there are few, else a strip of cells with the table folded away."""
    rows = [t for t in trace if isinstance(t, dict)]
    if not rows:
        return ""
    table = _trace_rows(rows)
    if len(rows) <= 8:
        return f"<h3>{esc(title)}</h3>{table}"
    counts: dict[str, int] = {}
    for t in rows:
        counts[_result(t)] = counts.get(_result(t), 0) + 1
    strip = "".join(
        f'<span class="tcell {esc(t.get("result", t.get("status", "?")))}" title="II {esc(t.get("ii"))}, L '
        f'{esc(t.get("length"))}: {esc(t.get("result", t.get("status")))} in {esc(seconds(t.get("seconds")))}"></span>'
        for t in rows)
    first, last = rows[0].get("ii"), rows[-1].get("ii")
    said = ", ".join(f"{n} {r}" for r, n in counts.items())
    return (f'<h3>{esc(title)}</h3><p class="note">{len(rows)} attempts, II {esc(first)} to {esc(last)}: {esc(said)}</p>'
            f'<div class="tstrip">{strip}</div><details><summary>every attempt</summary>{table}</details>')


def _proof_rows(s: dict[str, Any]) -> list[tuple[str, str]]:
    """What the solver proved, and the lower bounds on II and L."""
    mii, proof, summ = as_dict(s.get("mii")), as_dict(s.get("proof")), as_dict(s.get("search_summary"))
    kv: list[tuple[str, str]] = []
    if summ.get("proof"):
        kv.append(("proof", str(summ["proof"])))
    elif proof:
        kv.append(("proof", f"II {'proved minimal' if proof.get('ii_proved') else 'not proved minimal'}; "
                            f"L {'proved minimal' if proof.get('length_proved') else 'not proved minimal'}"))
    kv.append(("lower bound on II", f"{num(s.get('lower_bound'))}" + (
        f" (MII {mii.get('mii')}: resources {mii.get('res_mii')}, recurrences {mii.get('rec_mii')})" if mii else "")))
    if proof.get("length_lower_bound") is not None:
        kv.append(("lower bound on L", num(proof["length_lower_bound"])))
    return kv


def _setup_rows(pd: PageData) -> list[tuple[str, str]]:
    """The problem the solver was given: normalisation, warp groups, units, source hints."""
    s = pd.schedule
    joint, norm = as_dict(s.get("joint")), as_dict(s.get("normalization"))
    kv: list[tuple[str, str]] = []
    if norm:
        kv.append(("cost normalisation", f"1 unit = {num(norm.get('scale'))} cycles, worst ratio error "
                                         f"{num(norm.get('worst_ratio_error'))}"))
    if joint.get("status") and not pd.groups:
        kv.append(("joint search", f"{joint['status']}: no warp assignment found; the modulo schedule is shown"))
    if isinstance(s.get("warp_groups"), dict):
        wgs = s["warp_groups"]
        kv.append(("warp groups", f"{wgs.get('compute')} compute" + (
            f" + WG{wgs['variable_latency']} for loads" if wgs.get("variable_latency") is not None else "")
            + (f", register limit {nbytes(wgs['reg_limit_bytes'])} per group" if wgs.get("reg_limit_bytes") else "")))
    if pd.units:
        kv.append(("functional units", ", ".join(f"{u} ×{c}" for u, c in pd.units)))
    if s.get("cross_warp"):
        kv.append(("cross-warp edges", str(len(s["cross_warp"]))))
    if s.get("triton_version"):
        kv.append(("Triton", str(s["triton_version"])))
    hints = as_dict(s.get("hints"))
    if isinstance(hints.get("tl.range"), dict):
        kv.append(("source hints", "tl.range(..., " + ", ".join(f"{k}={v!r}" for k, v in hints["tl.range"].items())
                   + "); launch " + ", ".join(f"{k}={v!r}" for k, v in (hints.get("launch") or {}).items())))
        kv += [("not expressible as a hint", str(x)) for x in hints.get("not_expressible") or []]
    return kv


def summary_section(pd: PageData) -> str:
    """What was proved, how long each phase took, and every (I, L) the search tried."""
    s = pd.schedule
    kv = [("status", pd.status), ("backend", str(s.get("backend") or "–")),
          ("solve time", seconds(s.get("solve_seconds")))]
    kv += _proof_rows(s)
    if s.get("gap") is not None:
        kv.append(("gap", f"{to_float(s['gap']) or 0:.3g}"))
    kv += _setup_rows(pd)
    table = '<table class="kv">' + "".join(f"<tr><td>{esc(k)}</td><td>{esc(v)}</td></tr>" for k, v in kv) + "</table>"
    joint_trace = s.get("search") or as_dict(s.get("joint")).get("search") or []
    traces = _trace_table("Joint search (Algorithm 1): (I, L) tried", joint_trace) + \
        _trace_table("Modulo ILP: II tried", s.get("trace") or [])
    phases = s.get("phases") or s.get("modulo_phases") or {}
    return ('<section class="card" id="solver"><h2>Solver summary</h2>'
            '<p class="lede">What was proved, how long each phase took, and every (I, L) the search tried.</p>'
            f'<div class="cols"><div>{table}{_phase_bar(phases) if isinstance(phases, dict) else ""}</div>'
            f'<div>{traces or "<p class=note>No search trace recorded.</p>"}</div></div></section>')
