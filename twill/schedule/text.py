"""Text renderings of a schedule: summary, modulo reservation table (Figure 1d), the ceil(L/II)
staggered copies (Figure 1e) and the prologue / steady-state / epilogue code shape (Figure 1f)."""
from __future__ import annotations

from twill.graph.model import LoopGraph
from twill.schedule.model import Schedule
from twill.schedule.verify import unit_usage


def _runs(rows: list[tuple]) -> list[tuple[int, int, tuple]]:
    """Group consecutive equal rows: [(first index, last index, row)]."""
    out: list[tuple[int, int, tuple]] = []
    for i, row in enumerate(rows):
        if out and out[-1][2] == row:
            out[-1] = (out[-1][0], i, row)
        else:
            out.append((i, i, row))
    return out


def _table(head: list[str], runs: list[tuple[int, int, tuple]], max_rows: int, width: int = 22) -> list[str]:
    first = max(16, len(head[0]) + 2)
    lines = [f"{head[0]:<{first}}" + "".join(f"{h:<{width}}" for h in head[1:])]
    for a, b, cells in runs[:max_rows]:
        lab = f"{a}" if a == b else f"{a}-{b}"
        lines.append(f"{lab:<{first}}" + "".join(f"{c[:width - 1]:<{width}}" for c in cells))
    if len(runs) > max_rows:
        lines.append(f"... {len(runs) - max_rows} more rows")
    return lines


def reservation_table(g: LoopGraph, s: Schedule, max_rows: int = 24) -> str:
    """The modular RRT (Figure 1d): which ops hold each unit in each slot mod II, slots with the
    same occupants grouped into one line, and each unit's utilisation."""
    st = s.start_map
    units = sorted({r.unit for o in g.ops for r in o.rrt if r.length and r.count})
    owner: dict[str, list[list[str]]] = {u: [[] for _ in range(s.ii)] for u in units}
    for o in g.ops:
        for r in o.rrt:
            if r.unit in owner:
                for c in range(r.length):
                    owner[r.unit][(st[o.id] + r.offset + c) % s.ii].append(o.id)
    rows = [tuple(",".join(owner[u][slot]) or "." for u in units) for slot in range(s.ii)]
    lines = _table([f"slot (units mod {s.ii})"] + units, _runs(rows), max_rows)
    use = unit_usage(g, s)
    lines.append("utilisation: " + ", ".join(f"{u} {sum(1 for x in use.get(u, []) if x) / s.ii:.0%}" for u in units))
    return "\n".join(lines)


def staggered(g: LoopGraph, s: Schedule, max_rows: int = 40) -> str:
    """ceil(L/II) copies of the schedule placed II apart (Figure 1e): unit occupancy per time step
    (schedule units, as the start times),
    ``op#i`` for copy i; the first (stages-1)*II cycles are the prologue, the next II the steady
    state, the rest the epilogue. Ops that reserve no unit are listed under "issue"."""
    n, ii = s.stages, s.ii
    span = max((n - 1) * ii + s.length, n * ii)
    units = sorted({r.unit for o in g.ops for r in o.rrt if r.length and r.count})
    cols = units + (["issue"] if any(not any(r.length and r.count for r in o.rrt) for o in g.ops) else [])
    cells: dict[str, list[list[str]]] = {c: [[] for _ in range(span)] for c in cols}
    for i in range(n):
        for o in g.ops:
            t0 = i * ii + s.at(o.id)
            held = [r for r in o.rrt if r.length and r.count]
            if not held and t0 < span:
                cells["issue"][t0].append(f"{o.id}#{i}")
            for r in held:
                for c in range(r.length):
                    if t0 + r.offset + c < span:
                        cells[r.unit][t0 + r.offset + c].append(f"{o.id}#{i}")

    def band(t: int) -> str:
        return "prologue" if t < (n - 1) * ii else ("steady" if t < n * ii else "epilogue")

    rows = [(band(t),) + tuple(",".join(cells[c][t]) or "." for c in cols) for t in range(span)]
    return "\n".join(_table(["time (units)", "part"] + cols, _runs(rows), max_rows, width=22))


def layout(g: LoopGraph, s: Schedule) -> str:
    """The pipelined loop's shape (Figure 1f): prologue windows, the steady-state body (one window
    of II: each op at its slot, working on iteration ``i - stage``), and the epilogue windows."""
    n, ii = s.stages, s.ii
    order = sorted(g.ops, key=lambda o: (s.at(o.id) % ii, s.at(o.id)))

    def it(k: int, base: str) -> str:
        return base if k == 0 else f"{base}-{k}"

    lines = [f"{n} stage(s), II = {ii}: " + "; ".join(
        f"stage {k}: {', '.join(o.id for o in sorted(g.ops, key=lambda o: s.at(o.id)) if s.stage_of(o.id) == k)}"
        for k in range(n))]
    lines.append(f"prologue ({n - 1} window(s)):" + ("" if n > 1 else " empty"))
    for w in range(n - 1):
        lines.append(f"  window {w}: " + ", ".join(f"{o.id}[{w - s.stage_of(o.id)}]" for o in order
                                                   if s.stage_of(o.id) <= w))
    lines.append(f"steady state (for i = {n - 1} .. N-1), one window of {ii} units:")
    for o in order:
        units = ",".join(sorted({r.unit for r in o.rrt if r.length and r.count})) or o.unit
        lines.append(f"  slot {s.at(o.id) % ii:>4}: {o.id}[{it(s.stage_of(o.id), 'i')}]  ({units})")
    lines.append(f"epilogue ({n - 1} window(s)):" + ("" if n > 1 else " empty"))
    for e in range(1, n):
        lines.append(f"  window {e}: " + ", ".join(f"{o.id}[{it(s.stage_of(o.id) - e, 'N-1')}]" for o in order
                                                   if s.stage_of(o.id) >= e))
    return "\n".join(lines)


def _budget_text(s: Schedule) -> str:
    """The deterministic work the solve spent of its budget, and a limit that ended it (``budget`` record)."""
    b = s.get("budget")
    if not isinstance(b, dict):
        return ""
    why = {"budget": ", ended by the budget", "wall cap": ", ended by the wall-clock safety cap (not reproducible)"}
    return (f" ({b.get('spent', 0):.3g} of {b.get('limit', 0):g} {b.get('unit', 'deterministic seconds')}"
            f"{why.get(b.get('stopped_by'), '')})")


def summary(g: LoopGraph, s: Schedule) -> str:
    """Everything ``twill optimize`` prints: II, L, stages, status, bounds, normalisation, warp
    groups, start times, the modulo reservation table, the staggered copies and the loop shape.
    Times are schedule units (``1 unit = scale cycles``, said on the normalisation line) unless a
    figure says cycles."""
    mii = s.get("mii") or {}
    norm = s.get("normalization") or {}
    scale = norm.get("scale", s.time_unit) or 1.0
    lines = [f"kernel {s.get('kernel', g.name)} on {s.get('arch', '?')}: II = {s.ii} units "
             f"(~{s.ii * scale:.0f} cycles), L = {s.length} units, stages = {s.stages}, status = {status_text(s)}",
             f"lower bound: MII = {mii.get('mii', s.lower_bound)} (ResMII {mii.get('res_mii', '?')}, "
             f"RecMII {mii.get('rec_mii', '?')}); backend {s.backend}; solve {s.solve_seconds:.2f}s{_budget_text(s)}"]
    failed = s.get("joint")
    if isinstance(failed, dict) and failed.get("summary"):
        lines.append(f"joint search: {failed['summary']}")
    if s.gap is not None:
        why = proof_text(s.get("proof") or s.get("gap_detail") or (s.get("search_summary") or {}).get("proof"))
        lines.append(f"gap: {s.gap:.3g}" + (f" ({why})" if why else ""))
    if norm:
        lines.append(f"normalisation: 1 unit = {scale:.2f} cycles, worst ratio error {norm.get('worst_ratio_error')}")
    if s.warp:
        groups: dict[int, list[str]] = {}
        for k, w in s.warp:
            groups.setdefault(w, []).append(k)
        lines.append("warp groups: " + "; ".join(f"WG{w}: {', '.join(v)}" for w, v in sorted(groups.items())))
        pref = s.get("preference")
        if isinstance(pref, dict) and "blocking_exposure" in pref:
            lines.append(f"among equally short schedules (a preference, not part of the proof): blocking exposure "
                         f"{pref['blocking_exposure']}, values crossing groups {pref['crossing_values']}")
    lines.append("start times (units): " + ", ".join(f"{k}@{t}" for k, t in sorted(s.start, key=lambda kv: kv[1])))
    lines.append("modulo reservation table:")
    lines.append(reservation_table(g, s))
    lines.append(f"{s.stages} staggered copies, II apart:")
    lines.append(staggered(g, s))
    lines.append(layout(g, s))
    return "\n".join(lines)


def status_text(s: Schedule) -> str:
    """The status as proved: a modulo schedule kept because the joint search found no warp assignment
    says so, with what that search proved, rather than its own ``optimal``."""
    failed = s.get("joint")
    if isinstance(failed, dict) and failed.get("status"):
        return f"{s.status} as a modulo schedule only, no warp assignment (joint search: {failed['status']})"
    return s.status


def proof_text(proof: object) -> str:
    """A schedule's ``proof`` record in words: which of II and L were proved minimal, and the bounds."""
    if not isinstance(proof, dict):
        return str(proof or "")
    parts = []
    for key, name in (("ii", "II"), ("length", "L")):
        if key + "_proved" in proof:
            lb = proof.get(f"{key}_lower_bound")
            parts.append(f"{name} proved minimal" if proof[key + "_proved"] else
                         f"{name} not proved minimal" + (f" ({name} >= {lb})" if lb is not None else ""))
    rest = {k: v for k, v in proof.items() if not k.startswith(("ii_", "length_"))}
    return "; ".join(parts + [f"{k} {v}" for k, v in rest.items()])
