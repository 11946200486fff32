"""Random loop graphs with recurrences: the checker accepts every schedule, II >= MII, CP-SAT (both
encodings) and SCIP agree on the optimal (II, L), exhaustive enumeration agrees on graphs of <= 6 ops."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from twill.graph.model import Dep, LoopGraph, Op, Reservation
from twill.schedule.verify import verify
from twill.solve.bounds import horizon, mii
from twill.solve.brute import brute_min_ii
from twill.solve.modulo import modulo_schedule, refuted_iis
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



def tight_graph(rnd, n):
    """A random loop whose II is often above max(MII, range floor): unit-capacity units, ops that
    hold a unit at both ends of their span or after an ALU prologue, recurrences of distance 1-2."""
    ops = []
    for i in range(n):
        unit, c, shape = rnd.choice(["tc", "sfu"]), rnd.randint(2, 5), rnd.randint(0, 2)
        rrt = ((Reservation(unit, 0, c),), (Reservation("alu", 0, 1), Reservation(unit, 1, c - 1)),
               (Reservation(unit, 0, 1), Reservation(unit, c - 1, 1)))[shape]
        ops.append(Op(f"v{i}", "elementwise", unit, cycles=c, rrt=rrt))
    deps = [Dep(f"v{i}", f"v{j}", ops[i].cycles, rnd.randint(0, 1) if j > i else rnd.randint(1, 2))
            for i in range(n) for j in range(n) if rnd.random() < 0.3]
    return LoopGraph("tight", tuple(ops), tuple(deps))


def test_one_model_ii_search_equals_ii_by_ii():
    """The one-model II search (II a variable, stages only inside cyclic components) returns the
    first II at which the time-indexed encoding, II by II, finds a schedule, with and without
    stage-order pairs; brute force agrees on graphs of <= 5 ops. A third of these loops refute IIs
    above max(MII, floor), and the test checks that they still do."""
    import random
    from dataclasses import replace

    from twill.solve.backends import get_backend
    from twill.solve.backends.cpsat import CpSatModulo, range_floor
    from twill.solve.bounds import sequential_span
    from twill.solve.problem import ModuloAtII, ModuloIIRange

    cap = {"tc": 1, "sfu": 1, "alu": 1}
    rnd, slots, refuting = random.Random(1), get_backend("cpsat-slots"), 0
    for case in range(40):
        p = ModuloProblem.from_graph(tight_graph(rnd, rnd.randint(3, 6)), cap)
        if case % 2:
            pairs = {(rnd.randrange(p.n), rnd.randrange(p.n)) for _ in range(2)}
            p = replace(p, stage_order=tuple((a, b) for a, b in pairs if a != b))
        lo = max(mii(p)[0], range_floor(p))
        hi = max(lo, sequential_span(p))
        got = CpSatModulo().smallest_ii(ModuloIIRange(p, lo, hi), SolveOptions(time_limit=20))
        first = next(ii for ii in range(lo, hi + 1)
                     if slots.solve(ModuloAtII(p, ii, horizon(p, ii)), SolveOptions(time_limit=20)).status == "optimal")
        assert got.status == "optimal" and got.values["ii"] == first, (case, got, first)
        refuting += first > lo
        # The whole search (MII at fixed II, then the range model) against the time-indexed one.
        a, b = modulo_schedule(p, "cpsat"), modulo_schedule(p, "cpsat-slots")
        assert a.status == b.status == "optimal" and (a.ii, a.length) == (b.ii, b.length), case
        assert refuted_iis(a.get("trace")) == set(range(mii(p)[0], a.ii)), a.get("trace")
        if not p.stage_order and p.n <= 5:
            ii, _, _ = brute_min_ii(p)
            if ii >= lo:              # brute force searches from MII, below the floor too
                assert ii == first, case
    assert refuting >= 8, refuting
