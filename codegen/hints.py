"""Source hints: the ``tl.range(...)`` options and launch options closest to a twill schedule, for
users who keep Triton's own scheduler rather than the annotated TTGIR, and what they cannot say.

Triton turns ``tl.range(lo, hi, step, num_stages=, warp_specialize=, ...)`` into ``tt.*`` attributes
on the loop; its scheduler then places the loads ``num_stages - 1`` stages
ahead of their use and keeps the compute in the last stage, which is the shape of every schedule
twill emits for Triton 3.6 (realisability). What a hint cannot carry: the order of the ops inside
the stage (twill's clusters), the per-op stage of a schedule that splits compute across stages (a
newer Triton only), and the warp assignment op by op.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from codegen.placement import load_buffer_budget, load_bytes, placement
from twill.graph.model import LoopGraph
from twill.machine.model import Machine
from twill.schedule.model import Schedule


@dataclass(frozen=True)
class Hints:
    """``range_kwargs`` for ``tl.range``, ``launch`` for the kernel launch, ``lost`` what they cannot express."""

    range_kwargs: tuple[tuple[str, Any], ...]
    launch: tuple[tuple[str, Any], ...]
    lost: tuple[str, ...]
    tune: tuple[int, int] | None = None     # num_stages range worth sweeping (the streaming depth)

    def text(self, loop_line: int | str | None = None) -> str:
        """The hints as lines; ``loop_line``: the loop's source line, or where it is written (``f.py:69 (in a
        helper called at line 141)``, a loop of an inlined helper)."""
        rk = ", ".join(f"{k}={v!r}" for k, v in self.range_kwargs)
        la = ", ".join(f"{k}={v!r}" for k, v in self.launch)
        where = (f" (the loop at {loop_line})" if isinstance(loop_line, str) else
                 f" (the loop at line {loop_line})" if loop_line else "")
        lines = [f"source hints{where}: for ... in tl.range(lo, hi, step, {rk}); launch with {la}"]
        if self.tune and self.tune[0] < self.tune[1]:
            lines.append(f"  tune: num_stages {self.tune[0]}..{self.tune[1]} (how far the streaming loads run ahead "
                         "is a tuning parameter, paper 5.3; `twill validate` times each)")
        lines += [f"  not expressible as a hint: {x}" for x in self.lost]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {"tl.range": dict(self.range_kwargs), "launch": dict(self.launch), "not_expressible": list(self.lost),
                "tune_num_stages": list(self.tune) if self.tune else None}


def hints(g: LoopGraph, s: Schedule, machine: Machine, triton_version: str | None = None,
          distance: int | None = None) -> Hints:
    """The hints closest to ``s`` on ``g`` (placement as ``codegen.placement`` does it).

    One ``num_stages`` per output: when the annotated TTGIR carries warp specialization compiled at a
    fitting depth (``s``'s ``warp_specialization`` record), that depth, since more did not fit. Never
    ``warp_specialize=True`` for a warp assignment that was not written (Triton cannot compile it, or
    miscompiles it). The tuning range is the model's depth plus or minus one, within what the load
    buffers' shared memory holds (and the loop's trip count, when the graph knows it).

    Examples
    --------
    >>> h = hints(graph, schedule, load_machine("h100"))   # doctest: +SKIP
    >>> dict(h.range_kwargs)                         # doctest: +SKIP
    {'num_stages': 3}
    """
    p = placement(g, s, machine, triton_version, distance=distance)
    ws = s.get("warp_specialization") if isinstance(s.get("warp_specialization"), dict) else None
    stages, cap = p.max_stage + 1, stage_cap(g, machine, ws)
    stages = min(stages, cap) if cap else stages
    tune = (max(2, stages - 1), min(cap, stages + 1) if cap else stages + 1) if load_bytes(g) else None
    # a loop of no load: nothing for Triton's pipeliner to run ahead (FastVideo's top-k bisection had been told 2); the
    # launch's num_stages, the kernel's other loops', stays
    rk: list[tuple[str, Any]] = [("num_stages", stages if any(o.kind in ("load", "tma_load") for o in g.ops) else 1)]
    launch: list[tuple[str, Any]] = []
    if g.get("num_warps"):
        launch.append(("num_warps", int(g.get("num_warps"))))
    launch.append(("num_stages", stages))
    lost = lost_in_hints(g, s, p)
    groups = {w for v, w in (s.warp or ())}
    if len(groups) > 1:
        sm90 = "; on sm_90 Triton 3.6 specialises only with num_warps=4" if machine.sm == 90 else ""
        if ws is None or ws.get("warp_specialized"):
            rk.append(("warp_specialize", True))
            lost.append(f"the warp assignment op by op ({len(groups)} groups: Triton picks its own partitions{sm90})")
        else:
            lost.append(f"the warp assignment ({len(groups)} groups): not written, so warp_specialize is not "
                        "suggested either (see the warp specialization line)")
    return Hints(tuple(rk), tuple(launch), tuple(lost), tune)


MAX_HINT_STAGES = 8    # deeper than any num_stages the libraries' and Triton's tutorials' tuning spaces hold (2-7)


def stage_cap(g: LoopGraph, machine: Machine, ws: dict[str, Any] | None) -> int | None:
    """The most ``num_stages`` worth suggesting: what the load buffers' shared memory holds, the depth
    the warp-specialized TTGIR compiled at (lowered until it fit), the loop's trip count when known, and never
    more than ``MAX_HINT_STAGES`` (a loop of a scalar load and a store, 600 cycles of latency over a 2-cycle
    iteration, had been told ``num_stages=305``)."""
    nbytes = load_bytes(g)
    caps = [max(1, min(MAX_HINT_STAGES, load_buffer_budget(machine) // nbytes))] if nbytes else [MAX_HINT_STAGES]
    if ws and ws.get("warp_specialized") and ws.get("num_stages"):
        caps.append(int(ws["num_stages"]))
    if g.get("trip_count"):
        caps.append(max(1, int(g.get("trip_count"))))
    return min(caps) if caps else None


def lost_in_hints(g: LoopGraph, s: Schedule, p: Any) -> list[str]:
    """What ``tl.range`` options cannot say about ``s``: the order within a stage, compute split over
    stages, a schedule Triton cannot compile as solved, the machine optimum given up."""
    lost = []
    compute = [o.id for o in g.ops if not o.variable_latency]
    stages = {p.stage_map[v] for v in compute}
    if len(compute) > 1:
        lost.append("the order of the ops within a stage (twill's loop.cluster): "
                    + " < ".join(sorted(compute, key=lambda v: (p.stage_map[v], p.cluster_map[v]))[:6])
                    + (" ..." if len(compute) > 6 else ""))
    if len(stages) > 1:
        lost.append(f"compute split over stages {sorted(stages)} (Triton's scheduler keeps compute in the last stage)")
    if p.projected:
        lost.append("the schedule itself: Triton cannot compile it as solved (" + "; ".join(p.notes) + ")")
    real = s.get("realisability") if isinstance(s.get("realisability"), dict) else {}
    free = real.get("unconstrained") if isinstance(real.get("unconstrained"), dict) else {}
    if free.get("ii") and free["ii"] < s.ii and isinstance(free.get("start"), dict):
        # The machine optimum was given up for one this Triton compiles: say what it needed.
        dots = [d for c in real.get("constraints") or [] for d in c.get("ops") or [] if d in free["start"]]
        split = sorted({d: int(free["start"][d]) // int(free["ii"]) for d in dots}.items(), key=lambda kv: kv[1])
        lost.append(f"the machine optimum (II={free['ii']} against {s.ii} units emitted): "
                    + ", ".join(f"{d} in stage {st}" for d, st in split)
                    + f"; triton {real.get('triton', '?')} cannot compile a dot before the loop's last stage")
    return lost
