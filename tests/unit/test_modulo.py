"""Bounds, the II search and its proof statuses, backends, and bad input."""
import json
import random

import pytest

from twill.errors import GraphError, InputError, MachineError, SolverError
from twill.graph.io import graph_from_dict, graph_to_dict
from twill.graph.model import Dep, LoopGraph, Op, Reservation
from twill.machine.cost import annotate_costs
from twill.machine.model import load_machine
from twill.schedule.verify import verify
from twill.solve import backends
from twill.solve import modulo as modulo_mod
from twill.solve.backends import get_backend
from twill.solve.bounds import horizon, mii, rec_mii, res_mii, sequential_span
from twill.solve.modulo import modulo_schedule
from twill.solve.normalize import normalize_graph
from twill.solve.problem import ModuloProblem, Solution, SolveOptions

CAP = {"tc": 1, "sfu": 1, "alu": 1}


def op(i, unit, cycles=1):
    return Op(i, {"tc": "dot", "sfu": "sfu", "alu": "elementwise"}[unit], unit, cycles=cycles,
              rrt=(Reservation(unit, 0, cycles),))


def problem(ops, deps, cap=CAP):
    by = {o.id: o for o in ops}
    g = LoopGraph("t", tuple(ops), tuple(Dep(s, d, by[s].cycles if delay is None else delay, dist)
                                          for s, d, dist, delay in deps))
    return g, ModuloProblem.from_graph(g, cap)


def test_res_and_rec_mii():
    _, p = problem([op("a", "tc", 3), op("b", "tc", 4), op("c", "sfu", 2)],
                   [("a", "c", 0, None), ("c", "a", 1, None), ("b", "b", 1, None), ("c", "b", 0, 9), ("b", "c", 2, None)])
    assert res_mii(p) == 7                       # tc: 3 + 4
    # cycles: a->c->a (3+2)/1 = 5; b self 4/1; c->b->c (9+4)/2 = 6.5 -> 7
    assert rec_mii(p) == 7 and mii(p) == (7, 7, 7)
    _, q = problem([op("a", "tc", 3)], [("a", "a", 2, 7)])
    assert rec_mii(q) == 4                       # self-loop 7/2 -> 4


def test_zero_distance_cycle_is_infeasible_and_named():
    _, p = problem([op("a", "tc"), op("b", "sfu"), op("c", "alu")],
                   [("a", "b", 0, None), ("b", "c", 0, None), ("c", "a", 0, None)])
    with pytest.raises(GraphError, match="infeasible at every II") as e:
        modulo_schedule(p, "cpsat")
    msg = str(e.value)
    assert "\n" not in msg and any(c in msg for c in ("a -> b -> c -> a", "b -> c -> a -> b", "c -> a -> b -> c"))


def test_sequential_span_admits_a_schedule():
    g, p = problem([op("a", "tc", 2), op("b", "tc", 3), op("c", "sfu", 1)],
                   [("a", "b", 0, None), ("b", "c", 0, None), ("c", "a", 1, 9)])
    span = sequential_span(p)
    assert span == 2 + 3 + 9
    s = modulo_schedule(p, "cpsat", min_ii=span, max_ii=span)
    assert s.status == "optimal" and s.ii == span and verify(g, CAP, s) == []
    assert s.length <= horizon(p, span)


def test_ii_search_trace_phases_and_max_ii():
    # A GEMM that holds the TC in cycles 0 and 2: ResMII = 2 but II = 2 folds both onto one slot.
    g = LoopGraph("t", (Op("g", "dot", "tc", cycles=3, rrt=(Reservation("tc", 0, 1), Reservation("tc", 2, 1))),), ())
    p = ModuloProblem.from_graph(g, CAP)
    s = modulo_schedule(p, "scip")
    assert (s.ii, s.status, s.lower_bound) == (3, "optimal", 3)
    assert [(t["ii"], t["status"]) for t in s.get("trace")] == [(2, "infeasible"), (3, "optimal")]
    assert set(s.get("modulo_phases")) == {"bounds", "build", "solve"} and s.get("mii")["mii"] == 2
    capped = modulo_schedule(p, "cpsat", max_ii=2)
    assert capped.status == "infeasible" and capped.start == () and capped.lower_bound == 3


class _Scripted:
    """A stand-in backend that answers each II from a script (exercises the status logic)."""

    name = "scripted"

    def __init__(self, script):
        self.script = script

    def solve(self, q, options):
        status, length, bound = self.script.get(q.ii, ("infeasible", None, None))
        values = {"start": {n: 0 for n in q.problem.nodes}, "length": length} if length else {}
        return Solution(status, values, {"seconds": 0.0, "bound": bound})


def _run_scripted(monkeypatch, script, **kw):
    monkeypatch.setitem(backends.REGISTRY, ("modulo", "scripted"),
                        backends.SolverEntry("scripted", "modulo", __name__, "_Scripted", "none", "json"))
    monkeypatch.setattr(modulo_mod, "get_backend", lambda name: _Scripted(script))
    _, p = problem([op("a", "tc", 2), op("b", "sfu")], [("a", "b", 0, 5)])   # MII 2, sequential span 6
    return modulo_schedule(p, "scripted", **kw)


def test_timeout_below_makes_the_result_feasible_never_optimal(monkeypatch):
    s = _run_scripted(monkeypatch, {2: ("timeout", None, None), 3: ("optimal", 5, 5)})
    assert (s.status, s.ii, s.lower_bound) == ("feasible", 3, 2) and s.gap == pytest.approx(1 / 3)
    s = _run_scripted(monkeypatch, {2: ("feasible", 8, 6)})
    assert (s.status, s.ii, s.length) == ("feasible", 2, 8) and s.gap == pytest.approx(0.25)
    s = _run_scripted(monkeypatch, {2: ("timeout", None, None), 3: ("timeout", None, None), 4: ("infeasible", None, None)})
    assert s.status == "timeout"
    s = _run_scripted(monkeypatch, {}, total_time=0.0)          # budget spent after II = 2 (infeasible)
    assert (s.status, s.lower_bound, [t["ii"] for t in s.get("trace")]) == ("timeout", 3, [2])


def test_time_limit_on_a_larger_graph_never_claims_optimal():
    rnd = random.Random(3)
    ops = [op(f"n{i}", rnd.choice(["tc", "sfu", "alu"]), rnd.randint(3, 9)) for i in range(16)]
    deps = [(f"n{i}", f"n{j}", 0, None) for i in range(16) for j in range(i + 1, 16) if rnd.random() < 0.25]
    deps += [(f"n{j}", f"n{i}", 1, None) for i in range(16) for j in range(i + 1, 16) if rnd.random() < 0.05]
    g, p = problem(ops, deps)
    s = modulo_schedule(p, "cpsat", SolveOptions(time_limit=0.001, threads=1))   # deterministic s: 0.01 proves it
    assert s.status in ("feasible", "timeout")
    assert s.get("trace") and all(t["status"] != "optimal" for t in s.get("trace")[:1])
    if s.status == "feasible":
        assert verify(g, CAP, s) == [] and s.gap is not None


def test_unknown_and_missing_backends(monkeypatch):
    with pytest.raises(SolverError,
                       match=r"unknown solver backend \(expected cpsat \| cpsat-slots \| scip, found cbc\)"):
        get_backend("cbc")
    with pytest.raises(SolverError, match=r"unknown joint solver backend \(expected cpsat \| z3, found scip\)"):
        get_backend("scip", "joint")
    monkeypatch.setattr(backends, "is_installed", lambda module: module != "ortools.sat.python.cp_model")
    with pytest.raises(SolverError, match="pip install ortools"):
        get_backend("cpsat")
    with pytest.raises(SolverError, match="joint solver backend cpsat is not installed; pip install ortools"):
        get_backend("cpsat", "joint")
    assert get_backend("scip").name == "scip"


def test_every_registered_backend_is_its_class_and_declares_what_it_does():
    """Each entry's class exists with the entry's name and a ``solve``; the ``ii_range`` feature is
    exactly the backends with ``smallest_ii`` and ``range_floor``."""
    import importlib

    for (problem, name), e in backends.REGISTRY.items():
        cls = getattr(importlib.import_module(e.module), e.cls)
        assert (e.problem, e.name) == (problem, name) and cls.name == name and callable(cls.solve)
        has_range = hasattr(cls, "smallest_ii") and hasattr(cls, "range_floor")
        assert (backends.II_RANGE in e.features) == has_range, name


def test_importing_the_solve_layer_imports_no_solver():
    """The GPU machine has no solver: twill.solve's modules import ortools, pyscipopt and z3 only
    inside a backend's methods."""
    import subprocess
    import sys

    code = ("import sys, twill.solve.search, twill.solve.modulo, twill.solve.normalize, twill.solve.backends, "
            "twill.solve.backends.cpsat, twill.solve.backends.cpsat_joint, twill.solve.backends.scip, "
            "twill.solve.backends.z3_joint, twill.solve.brute, twill.schedule.verify, twill.schedule.text; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('ortools', 'pyscipopt', 'z3')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout


def test_unit_the_machine_lacks():
    g = LoopGraph("t", (op("a", "tc"), op("b", "sfu")), ())
    with pytest.raises(MachineError, match="lacks") as e:
        ModuloProblem.from_graph(g, {"tc": 1})
    assert "b" in str(e.value) and "sfu" in str(e.value)


def test_malformed_graph_json():
    g = LoopGraph("t", (op("a", "tc"),), ())
    good = graph_to_dict(g)
    assert graph_from_dict(json.loads(json.dumps(good))).ids == ("a",)
    for bad in ({**good, "nodes": [{"id": "a"}]}, {**good, "edges": [{"src": "a", "dst": "zz"}]},
                {**good, "schema": "other/1"}, [1, 2]):
        with pytest.raises(InputError):
            graph_from_dict(bad)


def test_cpsat_and_scip_agree_on_a_model_costed_graph():
    ops = (Op("k", "tma_load", "tma", streaming=True, variable_latency=True, attrs=(("bytes", 32768),)),
           Op("s", "dot", "tc", attrs=(("m", 128), ("n", 128), ("k", 128), ("a_dtype", "f16"))),
           Op("p", "sfu", "sfu", attrs=(("elements", 16384), ("nops", 3))),
           Op("o", "dot", "tc", attrs=(("m", 128), ("n", 128), ("k", 128), ("a_dtype", "f16"))))
    g = LoopGraph("fa", ops, (Dep("k", "s"), Dep("s", "p"), Dep("p", "o"), Dep("o", "o", distance=1)))
    machine = load_machine("h100")
    scaled, report = normalize_graph(annotate_costs(g, machine))
    p = ModuloProblem.from_graph(scaled, machine.units)
    a, b = modulo_schedule(p, "cpsat"), modulo_schedule(p, "scip")
    assert a.ii == b.ii > 0 and a.status == "optimal" and report["status"] == "optimal"
    assert report["seconds"] > 0 and len(report["values"]) >= 3
