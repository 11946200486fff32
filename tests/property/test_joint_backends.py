"""Random joint problems: CP-SAT and z3 agree on sat/unsat and on the smallest L; the checker
accepts every schedule either finds."""
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from twill.graph.model import Dep, LoopGraph, Op, Reservation
from twill.machine.model import load_machine
from twill.schedule.model import Schedule
from twill.schedule.verify import verify
from twill.solve.joint_problem import JointAtIL, JointProblem
from twill.solve.problem import SolveOptions
from twill.solve.search import get_joint_backend

H100 = load_machine("h100")
UNITS = ("tc", "sfu", "alu")


@st.composite
def graphs(draw):
    n = draw(st.integers(2, 5))
    ops = []
    for i in range(n):
        c = draw(st.integers(1, 2))
        unit = draw(st.sampled_from(UNITS))
        ops.append(Op(f"n{i}", "elementwise", unit, cycles=c, rrt=(Reservation(unit, 0, c),),
                      regs=draw(st.sampled_from([0, 32768, 65536]))))
    deps = []
    for i in range(1, n):
        j = draw(st.integers(0, i - 1))
        deps.append(Dep(f"n{j}", f"n{i}", ops[j].cycles, 0, draw(st.booleans())))
    k = draw(st.integers(0, n - 1))
    deps.append(Dep(f"n{n - 1}", f"n{k}", ops[n - 1].cycles, 1, False))
    return LoopGraph("rand", tuple(ops), tuple(deps), meta=(("num_warps", draw(st.sampled_from([4, 8]))),))


@settings(max_examples=25, deadline=None)
@given(graphs(), st.integers(1, 5), st.integers(0, 2), st.booleans(), st.sampled_from([None, 128, 200]))
def test_cpsat_and_z3_agree(g, ii, extra_stage, no_cross, reg_limit):
    p = JointProblem.from_graph(g, H100, scale=512.0, no_cross_warp=no_cross, reg_limit=reg_limit)
    lo = max(1, (math.ceil(sum(p.cycles) / ii) + extra_stage - 1) * ii + 1)
    q = JointAtIL(p, ii, lo, lo + ii - 1)
    opts = SolveOptions(time_limit=20)
    a = get_joint_backend("cpsat").solve(q, opts)
    b = get_joint_backend("z3").solve(q, opts)
    assert a.status != "timeout" and b.status != "timeout"
    assert (a.status == "infeasible") == (b.status == "infeasible")
    if a.status == "infeasible":
        return
    assert a.values["length"] == b.values["length"]
    for sol in (a, b):
        s = Schedule(ii=ii, length=sol.values["length"], start=tuple(sol.values["start"].items()), status="feasible",
                     lower_bound=1, warp=tuple(sol.values["warp"].items())).with_extra(joint=p.params())
        assert verify(g, H100, s) == []
