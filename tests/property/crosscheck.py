"""The cross-check both joint-backend property tests make: CP-SAT and z3 on the same joint problem at one
(I, L-range), agreeing on sat/unsat and on the smallest L, and every schedule either finds accepted by the
independent checker."""
import math

from twill.graph.model import LoopGraph
from twill.machine.model import Machine
from twill.schedule.model import Schedule
from twill.schedule.verify import verify
from twill.solve.joint_problem import JointAtIL, JointProblem
from twill.solve.problem import SolveOptions
from twill.solve.search import get_joint_backend


def cross_check(g: LoopGraph, machine: Machine, p: JointProblem, ii: int, extra_stage: int) -> None:
    """Solve ``p`` at ``ii`` with L in one II-wide window ``extra_stage`` stages above the work's lower
    bound, with both backends; assert they agree and that the checker passes each schedule."""
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
        assert verify(g, machine, schedule_of(sol, ii, p)) == []


def schedule_of(sol, ii: int, p: JointProblem) -> Schedule:
    """The schedule a backend's solution at ``ii`` stands for, with the problem's parameters for the checker."""
    return Schedule(ii=ii, length=sol.values["length"], start=tuple(sol.values["start"].items()), status="feasible",
                    lower_bound=1, warp=tuple(sol.values["warp"].items())).with_extra(joint=p.params())
