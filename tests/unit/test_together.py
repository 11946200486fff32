"""TOGETHER: ops whose loop results one side effect after the loop reads together share a compute group (the Gluon
route's consumer writing the store must hold both). Liger's fused MoE up-projection: 8 warps over 64 rows, each
accumulator had taken a compute group of its own and ``silu(gate) * up`` had no partition holding both: no kernel."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from twill.graph.model import Dep, LoopGraph, Op, Reservation
from twill.machine.model import load_machine
from twill.schedule.model import Schedule
from twill.schedule.verify import verify
from twill.solve.joint_problem import JointProblem
from twill.solve.search import JointOptions, joint_search

ROOT = Path(__file__).resolve().parents[2]
H100 = load_machine("h100")


def _two_dots() -> LoopGraph:
    """Two independent accumulations on units of their own (a gate and an up GEMM's stand-ins): apart, each on a
    group of its own, they overlap; one group issues one op at a time (GROUP SEQUENCE, ``async_issue``)."""
    ops = tuple(Op(f"dot_{n}", "elementwise", u, cycles=4, rrt=(Reservation(u, 0, 4),))
                for n, u in (("gate", "alu"), ("up", "sfu")))
    deps = tuple(Dep(o.id, o.id, 4, 1, False) for o in ops)
    return LoopGraph("swiglu", ops, deps, meta=(("num_warps", 8),))


@pytest.mark.parametrize("backend", ["cpsat", "z3"])
def test_a_pair_read_together_after_the_loop_shares_a_group_in_both_backends(backend):
    g = _two_dots()
    apart = joint_search(g, H100, JointOptions(time_limit=5, scale=512.0, warp_groups=2, async_issue=1.0), backend=backend)
    assert apart.warp_map["dot_gate"] != apart.warp_map["dot_up"] and apart.ii == 4
    held = joint_search(g, H100, JointOptions(time_limit=5, scale=512.0, warp_groups=2, async_issue=1.0,
                                              together=(("dot_gate", "dot_up"),)), backend=backend)
    assert held.status == "optimal" and held.warp_map["dot_gate"] == held.warp_map["dot_up"]
    assert held.ii == 8 and verify(g, H100, held) == []        # one group issues both: the II doubles


def test_the_checker_refuses_a_pair_read_together_on_two_groups():
    g = _two_dots()
    p = JointProblem.from_graph(g, H100, scale=512.0, warp_groups=2, together=(("dot_gate", "dot_up"),))
    s = Schedule(ii=4, length=4, start=(("dot_gate", 0), ("dot_up", 0)), status="feasible", lower_bound=1,
                 warp=(("dot_gate", 0), ("dot_up", 1))).with_extra(joint=p.params())
    assert [v.family for v in verify(g, H100, s)] == ["together"]


def test_a_name_not_in_the_graph_is_refused():
    with pytest.raises(Exception, match="together names ops not in the graph"):
        JointProblem.from_graph(_two_dots(), H100, scale=512.0, together=(("dot_gate", "dot_down"),))


def test_pairs_follow_the_row_split_sub_tile_by_sub_tile():
    from twill.gluon_route import split_pairs
    ops = (Op("a_s0", "dot", "tc", 1, attrs=(("split_of", "a"),)), Op("a_s1", "dot", "tc", 1, attrs=(("split_of", "a"),)),
           Op("b_s0", "dot", "tc", 1, attrs=(("split_of", "b"),)), Op("b_s1", "dot", "tc", 1, attrs=(("split_of", "b"),)),
           Op("c", "elementwise", "alu", 1), Op("x", "load", "lsu", 1, variable_latency=True))
    g = LoopGraph("g", ops, ())
    assert split_pairs(g, (("a", "b"),)) == (("a_s0", "b_s0"), ("a_s1", "b_s1"))
    assert split_pairs(g, (("a", "c"),)) == (("a_s0", "c"), ("a_s1", "c"))
    assert split_pairs(g, (("c", "x"),)) == ()        # a load's result: the producer's, no group to share


@pytest.mark.slow
def test_the_swiglu_moe_gemm_gets_a_kernel_with_its_accumulators_in_one_consumer():
    pytest.importorskip("triton")
    from twill.pipeline import OptimizeOptions, optimize
    path = str(ROOT / "tests" / "corpus" / "liger_moe_up_proj_swiglu.py")
    r = optimize(path, H100, OptimizeOptions(time_limit=2.5, total_time=7.5, threads=2))
    assert r.gluon is not None and r.gluon.kernel is not None, r.gluon and r.gluon.reason
    c = r.gluon.chosen
    assert c.schedule.get("joint")["together"] == [["dot0_acc_gate", "dot1_acc_up"]]
    assert c.schedule.warp_map["dot0_acc_gate"] == c.schedule.warp_map["dot1_acc_up"]
    # the verdict and the proof's note scope "optimal" to schedules holding the pair together
    from twill.commands.optimize import gluon_own
    assert "1 pair(s) of ops the code after the loop reads held in one group" in gluon_own(r)
    assert any("with dot0_acc_gate and dot1_acc_up in the same compute group" in n for n in r.notes)
    # the consumer holding both writes the SwiGLU product after its loop
    assert re.search(r"\n        a_out = silu_gate \* acc_up\w*\n", c.kernel.source), c.kernel.source


def test_a_candidate_with_no_schedule_says_why_in_the_candidates_line():
    # SageAttention's varlen forward: "2: none, 2: none" had hidden two timeouts under the two operand models
    from types import SimpleNamespace

    from twill.pipeline import unsolved_status
    x = SimpleNamespace(schedule=SimpleNamespace(status="timeout"), hold=True)
    assert unsolved_status(x) == "timeout, operands live until the dot retires"
    assert unsolved_status(SimpleNamespace(schedule=None, hold=False)) == "not solved, operands live until the dot issues"
