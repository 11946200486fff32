"""Cost normalisation (paper 5.2): small integer costs whose ratios stay close to the real ones.

    minimise F  s.t.  -F <= C[i] C'[j] - C[j] C'[i] <= F  for all i < j,   1 <= sum C' <= U,

over the distinct non-zero cycle counts C of a graph (op cycles, reservation offsets and lengths,
edge delays: one scale for all), with integer C'[i] >= 1, solved exactly with SCIP.
"""
from __future__ import annotations

import dataclasses
import time
from typing import Any

from twill.errors import InputError, SolverError
from twill.graph.model import LoopGraph
from twill.solve.backends import NORMALIZE, get_backend
from twill.solve.problem import CostNormalization, SolveOptions


def normalize_values(values: list[int], bound: int = 300, time_limit: float = 10.0) -> tuple[dict[int, int], dict[str, Any]]:
    """Map each distinct positive value to a small positive integer (the paper's section 5.2 ILP).

    Returns the mapping and a report: ``scale`` (cycles per unit, least-squares fit),
    ``worst_ratio_error`` (max over pairs of values of at least one unit of |C'i/C'j / (Ci/Cj) - 1|),
    ``worst_ratio_error_all`` (over every pair, including values below one unit, which must round
    up to 1), ``below_one_unit``, ``F``, ``status`` ("optimal" only when SCIP proved it),
    ``seconds``, ``bound`` and ``values`` (str(cycles) -> units).
    Among mappings with the least F the one with the largest sum is taken (finest resolution); the
    tie-break weighs less than one unit of F, which is an integer at every solution.

    Examples
    --------
    >>> mapping, report = normalize_values([1024, 512, 256], bound=20)
    >>> mapping, report["F"], report["status"]
    ({256: 2, 512: 4, 1024: 8}, 0, 'optimal')
    """
    vals = sorted({int(v) for v in values if v and v > 0})
    t0 = time.perf_counter()
    if not vals:
        return {}, {"scale": 1.0, "worst_ratio_error": 0.0, "worst_ratio_error_all": 0.0, "below_one_unit": [],
                    "F": 0, "status": "optimal", "seconds": 0.0, "bound": bound, "values": {}}
    if len(vals) > bound:
        raise InputError("more distinct costs than the normalisation bound allows", where="cost normalisation",
                         expected=f"<= {bound} (raise --normalize-bound)", found=f"{len(vals)} distinct costs")
    sol = get_backend("scip", NORMALIZE).solve(CostNormalization(tuple(vals), bound),
                                               SolveOptions(time_limit=time_limit))
    if sol.status not in ("optimal", "feasible"):
        raise SolverError("cost normalisation found no solution", where="SCIP", found=sol.stats["solver_status"])
    mapping = dict(zip(vals, sol.values["units"]))
    F_val = max((abs(a * mapping[b] - b * mapping[a]) for a in vals for b in vals), default=0)
    scale = sum(v * mapping[v] for v in vals) / sum(mapping[v] ** 2 for v in vals)
    report = {"scale": round(scale, 4), **_ratio_errors(mapping, scale), "F": F_val,
              "status": sol.status,
              "seconds": round(time.perf_counter() - t0, 4), "bound": bound,
              "values": {str(k): v for k, v in mapping.items()}}
    return mapping, report


def _ratio_errors(mapping: dict[int, int], scale: float) -> dict[str, Any]:
    def worst(vs: list[int]) -> float:
        return max((abs((mapping[a] / mapping[b]) / (a / b) - 1) for a in vs for b in vs if a != b), default=0.0)

    rep = [v for v in mapping if v >= scale]
    return {"worst_ratio_error": round(worst(rep), 4), "worst_ratio_error_all": round(worst(list(mapping)), 4),
            "below_one_unit": sorted(v for v in mapping if v < scale)}


def normalize_graph(g: LoopGraph, bound: int = 300, time_limit: float = 10.0) -> tuple[LoopGraph, dict[str, Any]]:
    """The graph with op cycles, reservation tables and edge delays in normalised units.

    Zero stays zero (streaming ops keep their zero latency). A reservation that ended within its
    op's cycles still does after mapping (its offset, then its length, is trimmed by the rounding
    excess, never below one unit of length). The report is ``normalize_values``'s.

    Examples
    --------
    >>> scaled, report = normalize_graph(costed_graph)      # doctest: +SKIP
    >>> report["scale"], report["worst_ratio_error"]        # doctest: +SKIP
    (9.56, 0.0469)
    """
    if not g.costed:
        missing = [o.id for o in g.ops if o.cycles is None][:5]
        raise InputError("graph has no costs to normalise", where=g.name, expected="costs on every op and edge",
                         found=f"uncosted {', '.join(missing) or 'edges'}")
    values = [o.cycles or 0 for o in g.ops] + [x for o in g.ops for r in o.rrt for x in (r.offset, r.length)] + \
             [d.delay or 0 for d in g.deps]
    mapping, report = normalize_values(values, bound, time_limit)

    def n(v: int | None) -> int:
        return mapping[int(v)] if v else 0

    ops = []
    for o in g.ops:
        cyc = n(o.cycles)
        rrt = []
        for r in o.rrt:
            off, length = n(r.offset), n(r.length)
            if r.offset + r.length <= (o.cycles or 0) and off + length > cyc:
                off = max(0, cyc - length)
                length = max(1 if r.length else 0, min(length, cyc - off))
            rrt.append(dataclasses.replace(r, offset=off, length=length))
        ops.append(dataclasses.replace(o, cycles=cyc, rrt=tuple(rrt)))
    deps = [dataclasses.replace(d, delay=n(d.delay)) for d in g.deps]
    return dataclasses.replace(g, ops=tuple(ops), deps=tuple(deps)), report
