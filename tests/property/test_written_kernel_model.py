"""GROUP SEQUENCE and RETIREMENT, the joint problem's semantics for the kernels twill writes itself
(the Gluon route, ``async_issue``): CP-SAT and z3 agree on random loops with asynchronous dots, every
schedule either finds passes the independent checker, and the checker reports a schedule that breaks
either family."""

from hypothesis import given, settings
from hypothesis import strategies as st

from twill.graph.model import Dep, LoopGraph, Op, Reservation
from twill.machine.model import load_machine
from twill.schedule.model import Schedule
from twill.schedule.verify import verify
from twill.solve.joint_problem import JointAtIL, JointProblem
from twill.solve.problem import SolveOptions
from twill.solve.search import get_joint_backend

from crosscheck import cross_check, schedule_of  # noqa: E402 (tests/property, on the path)

H100 = load_machine("h100")


def _dot(name, latency, tc):
    """An asynchronous dot: ``latency`` units to its result, ``tc`` of them on the tensor core."""
    return Op(name, "dot", "tc", cycles=latency, rrt=(Reservation("tc", 0, tc),))


@st.composite
def dot_loops(draw):
    """Two asynchronous dots (a latency that may outlast their tensor-core reservation, so that
    RETIREMENT binds) and elementwise ops reading them, on one or two compute groups."""
    ops = [_dot("d0", draw(st.integers(1, 4)), 1), _dot("d1", draw(st.integers(1, 4)), 1)]
    n = draw(st.integers(1, 3))
    for i in range(n):
        c = draw(st.integers(1, 2))
        unit = draw(st.sampled_from(("alu", "sfu")))
        ops.append(Op(f"e{i}", "elementwise", unit, cycles=c, rrt=(Reservation(unit, 0, c),)))
    deps = []
    for i in range(n):
        src = ops[draw(st.integers(0, i + 1))]
        deps.append(Dep(src.id, f"e{i}", src.cycles, 0, draw(st.booleans())))
    last = ops[-1]
    deps.append(Dep(last.id, draw(st.sampled_from(["d0", "d1"])), last.cycles, 1, False))
    return LoopGraph("dots", tuple(ops), tuple(deps), meta=(("num_warps", draw(st.sampled_from([4, 8]))),))


@settings(max_examples=30, deadline=None, derandomize=True)
@given(dot_loops(), st.integers(2, 7), st.integers(0, 2), st.integers(1, 2))
def test_cpsat_and_z3_agree_on_written_kernels(g, ii, extra_stage, issue):
    p = JointProblem.from_graph(g, H100, scale=100.0, async_issue=100.0 * issue)
    assert p.sequential and p.in_order[:2] == (True, True) and p.busy[:2] == (issue, issue)
    cross_check(g, H100, p, ii, extra_stage)


def _two_dots():
    """d0 (latency 5, 1 unit on the tensor core) and d1 (latency 1), one group; x reads d1."""
    ops = (_dot("d0", 5, 1), _dot("d1", 1, 1), Op("x", "elementwise", "alu", cycles=1, rrt=(Reservation("alu", 0, 1),)))
    deps = (Dep("d1", "x", 1, 0, True),)
    return LoopGraph("two", ops, deps, meta=(("num_warps", 4),))


def test_retirement_makes_a_reader_wait_for_the_dot_issued_before():
    """d0 issued before d1 on one group retires first: x, reading d1 alone, still waits for d0. The
    solvers place x at d0's completion at the earliest; the checker rejects x at d1's completion."""
    g = _two_dots()
    p = JointProblem.from_graph(g, H100, scale=1.0, async_issue=1.0)
    for name in ("cpsat", "z3"):
        sol = get_joint_backend(name).solve(JointAtIL(p, 8, 1, 8), SolveOptions(time_limit=20))
        start = sol.values["start"]
        gap = (start["d1"] - start["d0"]) % 8
        assert start["x"] >= start["d1"] - gap + 5, (name, start)
        assert verify(g, H100, schedule_of(sol, 8, p)) == []
    bad = Schedule(ii=8, length=7, start=(("d0", 0), ("d1", 1), ("x", 2)), status="feasible", lower_bound=1,
                   warp=(("d0", 0), ("d1", 0), ("x", 0))).with_extra(joint=p.params())
    found = [v for v in verify(g, H100, bad) if v.family == "retirement"]
    assert found and "d0" in str(found[0])
    without = JointProblem.from_graph(g, H100, scale=1.0)           # the Triton route: no such family
    assert not any(without.in_order) and not without.sequential


def test_group_sequence_keeps_one_op_at_a_time_on_a_group():
    """Two 3-unit elementwise ops on one group may not overlap on a sequential problem (they may on
    the Triton route's, where only the units' capacities count); the checker reports the overlap."""
    ops = (_dot("d", 1, 1), Op("a", "elementwise", "alu", cycles=3, rrt=(Reservation("alu", 0, 1),)),
           Op("b", "elementwise", "sfu", cycles=3, rrt=(Reservation("sfu", 0, 1),)))
    g = LoopGraph("seq", ops, (Dep("d", "a", 1, 0, False), Dep("d", "b", 1, 0, False)), meta=(("num_warps", 4),))
    seq = JointProblem.from_graph(g, H100, scale=1.0, async_issue=1.0, warp_groups=1)
    free = JointProblem.from_graph(g, H100, scale=1.0, warp_groups=1)
    opts = SolveOptions(time_limit=20)
    for name in ("cpsat", "z3"):
        assert get_joint_backend(name).solve(JointAtIL(free, 6, 1, 6), opts).status != "infeasible"
        assert get_joint_backend(name).solve(JointAtIL(seq, 6, 1, 6), opts).status == "infeasible"   # 1 + 3 + 3 > 6
        assert get_joint_backend(name).solve(JointAtIL(seq, 7, 1, 7), opts).status == "optimal"
    bad = Schedule(ii=7, length=4, start=(("d", 0), ("a", 1), ("b", 1)), status="feasible", lower_bound=1,
                   warp=(("d", 0), ("a", 0), ("b", 0))).with_extra(joint=seq.params())
    assert any(v.family == "group-sequence" for v in verify(g, H100, bad))
