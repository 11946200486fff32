"""Random loop graphs with recurrences: checker accepts, II >= MII, backends agree, brute force agrees."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from twill.graph.model import Dep, LoopGraph, Op, Reservation
from twill.schedule.verify import verify
from twill.solve.bounds import mii
from twill.solve.brute import brute_min_ii
from twill.solve.modulo import modulo_schedule
from twill.solve.problem import ModuloProblem, SolveOptions

UNITS = ["tc", "sfu", "alu"]
CAP = {"tc": 1, "sfu": 1, "alu": 2}


@st.composite
def loop_graphs(draw, max_nodes=6, max_cycles=4):
    n = draw(st.integers(2, max_nodes))
    ops = []
    for i in range(n):
        unit = draw(st.sampled_from(UNITS))
        c = draw(st.integers(1, max_cycles))
        ops.append(Op(f"v{i}", "elementwise", unit, cycles=c, rrt=(Reservation(unit, 0, c),)))
    deps = []
    for i in range(n):
        for j in range(n):
            if draw(st.integers(0, 3)) == 0:
                # forward edges may have distance 0; backward/self edges carry a recurrence
                dist = draw(st.integers(0, 2)) if j > i else draw(st.integers(1, 2))
                deps.append(Dep(f"v{i}", f"v{j}", ops[i].cycles, dist))
    return LoopGraph("rand", tuple(ops), tuple(deps))


SETTINGS = settings(max_examples=25, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(loop_graphs())
def test_backends_agree_and_checker_accepts(g):
    p = ModuloProblem.from_graph(g, CAP)
    a = modulo_schedule(p, "cpsat", SolveOptions(time_limit=20))
    b = modulo_schedule(p, "scip", SolveOptions(time_limit=20))
    assert a.status == b.status == "optimal"
    assert verify(g, CAP, a) == [] and verify(g, CAP, b) == []
    assert a.ii >= mii(p)[0]
    assert (a.ii, a.length) == (b.ii, b.length)


@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(loop_graphs(max_nodes=3, max_cycles=2))
def test_brute_force_agrees_on_tiny_graphs(g):
    p = ModuloProblem.from_graph(g, CAP)
    s = modulo_schedule(p, "cpsat", SolveOptions(time_limit=20))
    assert (s.ii, s.length) == brute_min_ii(p)
