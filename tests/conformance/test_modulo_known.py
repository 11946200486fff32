"""Named modulo-scheduling problems with known answers, one line per backend."""
import pytest

from twill.errors import GraphError, MachineError
from twill.graph.model import Dep, LoopGraph, Op, Reservation
from twill.schedule.verify import verify
from twill.solve.modulo import modulo_schedule
from twill.solve.problem import ModuloProblem, SolveOptions

BACKENDS = ["cpsat", "scip"]


def op(i, unit, cycles=1):
    return Op(i, {"tc": "dot", "sfu": "sfu", "alu": "elementwise"}[unit], unit, cycles=cycles,
              rrt=(Reservation(unit, 0, cycles),))


def graph(ops, deps):
    by = {o.id: o for o in ops}
    return LoopGraph("t", tuple(ops), tuple(Dep(s, d, by[s].cycles, dist) for s, d, dist in deps))


FIG1 = graph([op("S", "tc"), op("P", "sfu"), op("O", "tc")], [("S", "P", 0), ("P", "O", 0), ("O", "O", 1)])
CAP = {"tc": 1, "sfu": 1, "alu": 1}


def solve(g, backend, **kw):
    s = modulo_schedule(ModuloProblem.from_graph(g, CAP), backend, SolveOptions(time_limit=20), **kw)
    assert verify(g, CAP, s) == []
    return s


@pytest.mark.parametrize("backend", BACKENDS)
def test_figure1_flash_attention(backend):
    s = solve(FIG1, backend)
    assert (s.ii, s.length, s.stages, s.status) == (2, 4, 2, "optimal")
    # Figure 1f: S of the next iteration is issued in the same window as P and O of this one,
    # i.e. the first GEMM is hoisted one stage ahead of the exponential's consumer.
    assert s.stage_of("S") == 0 and s.stage_of("O") == 1
    assert s.at("S") + s.ii < s.at("P") + 1 + s.ii  # next S issues before this P's successor window ends


@pytest.mark.parametrize("backend", BACKENDS)
def test_recurrence_bound(backend):
    # a -> b -> c -> a (distance 2), 3 cycles each on different units: RecMII = ceil(9/2) = 5.
    g = graph([op("a", "tc", 3), op("b", "sfu", 3), op("c", "alu", 3)], [("a", "b", 0), ("b", "c", 0), ("c", "a", 2)])
    s = solve(g, backend)
    assert s.ii == 5 and s.status == "optimal"


@pytest.mark.parametrize("backend", BACKENDS)
def test_resource_bound(backend):
    # Four independent 2-cycle ops on one unit: ResMII = 8.
    g = graph([op(f"x{i}", "tc", 2) for i in range(4)], [])
    assert solve(g, backend).ii == 8


@pytest.mark.parametrize("backend", BACKENDS)
def test_modulo_conflict_forces_larger_ii(backend):
    # Two 1-cycle tc ops plus a chain forcing them into the same slot parity: II must exceed ResMII.
    g = graph([op("a", "tc"), op("b", "tc"), op("c", "sfu")], [("a", "c", 0), ("c", "b", 0), ("b", "a", 1)])
    s = solve(g, backend)
    assert s.ii == 3   # RecMII = 3 (a->c->b->a, delays 3, distance 1)


def test_zero_distance_cycle_is_named():
    g = graph([op("a", "tc"), op("b", "sfu")], [("a", "b", 0), ("b", "a", 0)])
    with pytest.raises(GraphError, match="a -> b -> a|b -> a -> b"):
        solve(g, "cpsat")


def test_missing_unit_is_reported():
    g = graph([op("a", "tc")], [])
    with pytest.raises(MachineError, match="lacks"):
        ModuloProblem.from_graph(g, {"sfu": 1})


def test_time_limit_never_claims_optimal():
    import random

    rnd = random.Random(3)
    ops = [op(f"n{i}", rnd.choice(["tc", "sfu", "alu"]), rnd.randint(3, 9)) for i in range(16)]
    deps = [(f"n{i}", f"n{j}", 0) for i in range(16) for j in range(i + 1, 16) if rnd.random() < 0.25]
    g = graph(ops, deps)
    s = modulo_schedule(ModuloProblem.from_graph(g, CAP), "cpsat", SolveOptions(time_limit=0.01))
    assert s.status in ("feasible", "timeout")
    if s.status == "feasible":
        assert verify(g, CAP, s) == []
