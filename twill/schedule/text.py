"""Text renderings of a schedule: summary, modulo reservation table, and the staggered
prologue / steady-state / epilogue layout (the paper's Figure 1d-f)."""
from __future__ import annotations

from twill.graph.model import LoopGraph
from twill.schedule.model import Schedule
from twill.schedule.verify import unit_usage


def reservation_table(g: LoopGraph, s: Schedule, max_rows: int = 24) -> str:
    """Modular RRT: for each unit, which ops hold it in each slot (slots grouped into runs)."""
    st = s.start_map
    units = sorted({r.unit for o in g.ops for r in o.rrt})
    owner: dict[str, list[list[str]]] = {u: [[] for _ in range(s.ii)] for u in units}
    for o in g.ops:
        for r in o.rrt:
            for c in range(r.length):
                owner[r.unit][(st[o.id] + r.offset + c) % s.ii].append(o.id)
    rows = []
    # Group consecutive slots with the same occupants into one line.
    prev, begin = None, 0
    for slot in range(s.ii + 1):
        cur = tuple(",".join(owner[u][slot]) or "." for u in units) if slot < s.ii else None
        if cur != prev:
            if prev is not None:
                rows.append((begin, slot - 1, prev))
            prev, begin = cur, slot
    head = f"{'slot (mod ' + str(s.ii) + ')':<16}" + "".join(f"{u:<22}" for u in units)
    lines = [head]
    for a, b, cells in rows[:max_rows]:
        lab = f"{a}" if a == b else f"{a}-{b}"
        lines.append(f"{lab:<16}" + "".join(f"{c[:21]:<22}" for c in cells))
    if len(rows) > max_rows:
        lines.append(f"... {len(rows) - max_rows} more rows")
    use = unit_usage(g, s)
    lines.append("utilisation: " + ", ".join(f"{u} {sum(1 for x in use.get(u, []) if x) / s.ii:.0%}" for u in units))
    return "\n".join(lines)


def layout(g: LoopGraph, s: Schedule) -> str:
    """Prologue, steady state and epilogue: which stage of which iteration each op belongs to."""
    n = s.stages
    by_stage: dict[int, list[str]] = {}
    for o in g.ops:
        by_stage.setdefault(s.stage_of(o.id), []).append(o.id)
    lines = [f"{n} stage(s); stage k of iteration i runs in window i + k (each window is II = {s.ii})"]
    for k in range(n):
        lines.append(f"  stage {k}: {', '.join(sorted(by_stage.get(k, []), key=lambda x: s.at(x)))}")
    if n > 1:
        lines.append("prologue: " + "; ".join(f"window {w}: stages 0..{w} of iterations {w}..0" for w in range(n - 1)))
        lines.append("steady state (one window): " + ", ".join(f"stage {k} of iteration i-{k}" for k in range(n)))
        lines.append("epilogue: drains stages 1..%d of the last %d iteration(s)" % (n - 1, n - 1))
    else:
        lines.append("no overlap across iterations: prologue and epilogue are empty")
    return "\n".join(lines)


def summary(g: LoopGraph, s: Schedule) -> str:
    mii = s.get("mii") or {}
    norm = s.get("normalization") or {}
    scale = norm.get("scale", s.time_unit) or 1.0
    lines = [f"kernel {s.get('kernel', g.name)} on {s.get('arch', '?')}: II = {s.ii} units "
             f"(~{s.ii * scale:.0f} cycles), L = {s.length}, stages = {s.stages}, status = {s.status}",
             f"lower bound: MII = {mii.get('mii', s.lower_bound)} (ResMII {mii.get('res_mii', '?')}, "
             f"RecMII {mii.get('rec_mii', '?')}); backend {s.backend}; solve {s.solve_seconds:.2f}s"]
    if s.gap is not None:
        lines.append(f"gap: {s.gap}")
    if norm:
        lines.append(f"normalisation: 1 unit = {scale:.2f} cycles, worst ratio error {norm.get('worst_ratio_error')}")
    if s.warp:
        groups: dict[int, list[str]] = {}
        for k, w in s.warp:
            groups.setdefault(w, []).append(k)
        lines.append("warp groups: " + "; ".join(f"WG{w}: {', '.join(v)}" for w, v in sorted(groups.items())))
    lines.append("start cycles: " + ", ".join(f"{k}@{t}" for k, t in sorted(s.start, key=lambda kv: kv[1])))
    lines.append("modulo reservation table:")
    lines.append(reservation_table(g, s))
    lines.append(layout(g, s))
    return "\n".join(lines)
