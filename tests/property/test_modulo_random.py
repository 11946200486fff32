"""Random loop graphs with recurrences: the checker accepts every schedule, II >= MII, CP-SAT (both
encodings) and SCIP agree on the optimal (II, L), exhaustive enumeration agrees on graphs of <= 6 ops."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from twill.graph.model import Dep, LoopGraph, Op, Reservation
from twill.schedule.verify import verify
from twill.solve.bounds import horizon, mii
from twill.solve.brute import brute_min_ii
from twill.solve.modulo import modulo_schedule
from twill.solve.problem import ModuloProblem, SolveOptions

UNITS = ["tc", "sfu", "alu"]
CAP = {"tc": 1, "sfu": 1, "alu": 2}


@st.composite
def loop_graphs(draw, max_nodes=6, max_cycles=3):
    """Ops on random units (some with a 2-part reservation table), forward edges of distance 0-2,
    backward and self edges of distance 1-2 (recurrences); delay = the source's cycles."""
    n = draw(st.integers(2, max_nodes))
    ops = []
    for i in range(n):
        unit = draw(st.sampled_from(UNITS))
        c = draw(st.integers(1, max_cycles))
        rrt = (Reservation(unit, 0, c),)
        if c >= 2 and draw(st.integers(0, 3)) == 0:       # an ALU prologue, then the unit (as an exp does)
            rrt = (Reservation("alu", 0, 1), Reservation(unit, 1, c - 1))
        ops.append(Op(f"v{i}", "elementwise", unit, cycles=c, rrt=rrt))
    deps = []
    for i in range(n):
        for j in range(n):
            if draw(st.integers(0, 3)) == 0:
                dist = draw(st.integers(0, 2)) if j > i else draw(st.integers(1, 2))
                deps.append(Dep(f"v{i}", f"v{j}", ops[i].cycles, dist))
    return LoopGraph("rand", tuple(ops), tuple(deps))


SETTINGS = settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(loop_graphs())
def test_backends_agree_checker_accepts_brute_force_agrees(g):
    p = ModuloProblem.from_graph(g, CAP)
    a = modulo_schedule(p, "cpsat", SolveOptions(time_limit=20))
    b = modulo_schedule(p, "scip", SolveOptions(time_limit=20))
    c = modulo_schedule(p, "cpsat-slots", SolveOptions(time_limit=20))
    assert a.status == b.status == c.status == "optimal"
    assert verify(g, CAP, a) == [] and verify(g, CAP, b) == [] and verify(g, CAP, c) == []
    assert (a.ii, a.length) == (c.ii, c.length)
    assert a.ii >= mii(p)[0] and a.lower_bound == a.ii
    assert (a.ii, a.length) == (b.ii, b.length)
    ii, length, start = brute_min_ii(p)
    assert (a.ii, a.length) == (ii, length)
    # The enumerator's schedule is itself valid, and within the horizon the ILP searched.
    from twill.schedule.model import Schedule

    ref = Schedule(ii=ii, length=length, start=tuple(start.items()), status="optimal", lower_bound=ii)
    assert verify(g, CAP, ref) == []
    assert length <= horizon(p, ii)


@settings(max_examples=15, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(loop_graphs(max_nodes=5), st.data())
def test_stage_order_pairs_agree_across_backends_and_hold(g, data):
    """A compiler's stage-order pairs (stage(a) <= stage(b)): the three backends agree on (II, L),
    every schedule keeps the pairs, and the II never drops below the unconstrained one."""
    from dataclasses import replace

    p0 = ModuloProblem.from_graph(g, CAP)
    pairs = data.draw(st.lists(st.tuples(st.integers(0, p0.n - 1), st.integers(0, p0.n - 1)), max_size=3))
    p = replace(p0, stage_order=tuple((a, b) for a, b in pairs if a != b))
    free = modulo_schedule(p0, "cpsat", SolveOptions(time_limit=20))
    got = [modulo_schedule(p, b, SolveOptions(time_limit=20)) for b in ("cpsat", "cpsat-slots", "scip")]
    assert all(s.status == "optimal" for s in got)
    assert len({(s.ii, s.length) for s in got}) == 1 and got[0].ii >= free.ii
    for s in got:
        assert verify(g, CAP, s) == []
        assert all(s.start_map[p.nodes[a]] // s.ii <= s.start_map[p.nodes[b]] // s.ii for a, b in p.stage_order)
    # The stage-order bound on II is sound: every II between the unconstrained optimum and the found
    # one, including those below the bound, is infeasible when solved directly.
    from twill.solve.backends import get_backend
    from twill.solve.problem import ModuloAtII

    for ii in range(free.ii, got[0].ii):
        assert get_backend("cpsat").solve(ModuloAtII(p, ii, horizon(p, ii)), SolveOptions(time_limit=20)).status == "infeasible"
