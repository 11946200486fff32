"""Cost normalisation (paper 5.2): small integer costs whose ratios stay close to the real ones.

minimise F  s.t.  -F <= C[i] C'[j] - C[j] C'[i] <= F  for all i < j,   1 <= sum C' <= U,
over the distinct non-zero cycle counts C of a graph, solved exactly with SCIP.
"""
from __future__ import annotations

import dataclasses
import math
import time
from typing import Any

from twill.errors import SolverError
from twill.graph.model import LoopGraph


def normalize_values(values: list[int], bound: int = 300, time_limit: float = 10.0) -> tuple[dict[int, int], dict[str, Any]]:
    """Map each distinct positive value to a small positive integer (SCIP ILP).

    Examples
    --------
    >>> normalize_values([1024, 512, 128], bound=20)[0]     # doctest: +SKIP
    {128: 2, 512: 6, 1024: 12}
    """
    vals = sorted({int(v) for v in values if v > 0})
    t0 = time.perf_counter()
    if not vals:
        return {}, {"scale": 1.0, "worst_ratio_error": 0.0, "F": 0, "status": "optimal", "seconds": 0.0, "bound": bound}
    if len(vals) > bound:
        raise SolverError("more distinct costs than the normalisation bound allows", expected=f"<= {bound} (--normalize-bound)",
                          found=str(len(vals)))
    try:
        from pyscipopt import Model, quicksum
    except ImportError:
        raise SolverError("SCIP is not installed", hint="pip install pyscipopt") from None
    m = Model("normalize")
    m.hideOutput()
    m.setParam("limits/time", time_limit)
    c = [m.addVar(vtype="I", lb=1, ub=bound, name=f"c{i}") for i in range(len(vals))]
    F = m.addVar(vtype="C", lb=0, name="F")
    for i in range(len(vals)):
        for j in range(i + 1, len(vals)):
            expr = vals[i] * c[j] - vals[j] * c[i]
            m.addCons(expr <= F)
            m.addCons(-F <= expr)
    m.addCons(quicksum(c) <= bound)
    m.addCons(quicksum(c) >= 1)
    # Among equally good ratio fits prefer the finest resolution (largest costs), as a tie-break
    # scaled so it can never outweigh one unit of F.
    tie = 1.0 / (bound * len(vals) + 1) / max(vals)
    m.setObjective(F - tie * quicksum(c), "minimize")
    m.optimize()
    status = m.getStatus()
    if m.getNSols() == 0:
        raise SolverError("cost normalisation found no solution", found=status)
    mapping = {v: int(round(m.getVal(x))) for v, x in zip(vals, c)}
    scale = sum(vals) / sum(mapping.values())
    # Ratio error over the values the scale can represent (a cost below one unit must round to 1).
    rep = [v for v in vals if v >= scale]
    worst = 0.0
    for i in rep:
        for j in rep:
            if i != j:
                r, r2 = i / j, mapping[i] / mapping[j]
                worst = max(worst, abs(r2 - r) / r)
    report = {"scale": scale, "worst_ratio_error": round(worst, 4), "F": round(m.getVal(F), 3),
              "status": "optimal" if status == "optimal" else "feasible", "seconds": round(time.perf_counter() - t0, 4),
              "bound": bound, "values": {str(k): v for k, v in mapping.items()}}
    return mapping, report


def normalize_graph(g: LoopGraph, bound: int = 300, time_limit: float = 10.0) -> tuple[LoopGraph, dict[str, Any]]:
    """The graph with op cycles, reservation lengths and delays in normalised units."""
    values = [o.cycles or 0 for o in g.ops] + [r.length for o in g.ops for r in o.rrt] + \
             [d.delay or 0 for d in g.deps]
    mapping, report = normalize_values(values, bound, time_limit)

    def n(v: int | None) -> int:
        return 0 if not v else mapping[int(v)]

    ops = []
    for o in g.ops:
        cyc = n(o.cycles)
        rrt = tuple(dataclasses.replace(r, offset=min(cyc, round(r.offset / report["scale"])) if r.offset else 0,
                                        length=n(r.length)) for r in o.rrt)
        ops.append(dataclasses.replace(o, cycles=cyc, rrt=rrt))
    deps = [dataclasses.replace(d, delay=n(d.delay)) for d in g.deps]
    return dataclasses.replace(g, ops=tuple(ops), deps=tuple(deps)), report
