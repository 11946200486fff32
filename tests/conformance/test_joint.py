"""Joint software pipelining + warp specialization (Algorithm 1) on named problems, per backend."""
import pytest

from tests.conformance.joint_graphs import UNIT, figure1, rescaled, subtiled, untiled
from twill.machine.model import load_machine
from twill.schedule.verify import verify
from twill.solve.search import JointOptions, joint_search

H100 = load_machine("h100")
BACKENDS = ["cpsat", "z3"]


def solve(g, backend, **kw):
    s = joint_search(g, H100, JointOptions(time_limit=10, scale=UNIT, max_steps=4, **kw), backend=backend)
    if s.status in ("optimal", "feasible"):
        assert verify(g, H100, s) == []
    return s


def results(s):
    """{(I, L or [lo, hi]): result} of the search trace."""
    return [(e["ii"], e["result"]) for e in s.get("search")]


@pytest.mark.parametrize("backend", BACKENDS)
def test_figure1_joint_ii2_l4(backend):
    s = solve(figure1(), backend)
    assert (s.ii, s.length, s.status) == (2, 4, "optimal")
    assert results(s) == [(2, "sat")]


@pytest.mark.parametrize("backend", BACKENDS)
def test_figure1_with_blocking_wait_needs_two_groups(backend):
    # P waits on S (a blocking wgmma wait) while the next S runs on the TC: one warp group stalls,
    # so at I=2 the exp goes to the other group; with one group I=2 is unsat.
    two = solve(figure1(blocking=True, num_warps=8), backend)
    assert (two.ii, two.status) == (2, "optimal")
    assert two.warp_map["S"] != two.warp_map["P"]
    one = solve(figure1(blocking=True, num_warps=4), backend)
    assert results(one)[0] == (2, "unsat") and one.ii > 2 and one.status == "optimal"


@pytest.mark.parametrize("backend", BACKENDS)
def test_subtiled_ping_pong(backend):
    g = subtiled()
    s = solve(g, backend)
    assert (s.ii, s.length, s.status) == (4, 4, "optimal")
    w, st = s.warp_map, s.start_map
    assert w["exp_a"] != w["exp_b"]
    # Each exp issues while the tensor core runs a GEMM of the other warp group.
    for e in ("exp_a", "exp_b"):
        on_tc = [o.id for o in g.ops if o.unit == "tc" and (st[e] - st[o.id]) % s.ii < o.cycles]
        assert len(on_tc) == 1 and w[on_tc[0]] != w[e]
    assert s.get("cross_warp") == []


@pytest.mark.parametrize("backend", BACKENDS)
def test_fewer_warp_groups_make_smallest_ii_unsat(backend):
    s = solve(subtiled(num_warps=4), backend)
    trace = results(s)
    assert trace[0] == (4, "unsat")
    assert s.status == "optimal" and s.ii > 4 and trace[-1] == (s.ii, "sat")
    assert set(s.warp_map.values()) == {0}


@pytest.mark.parametrize("backend", BACKENDS)
def test_no_subtiling_makes_smallest_ii_unsat(backend):
    # A 128-row tile needs both Hopper warp groups per op (wgmma is 64 rows per group): the group
    # is 8 warps wide, so nothing can be split; the sub-tiled kernel reaches the same I_min = 4.
    s = solve(untiled(), backend, warps_per_op=8)
    assert results(s)[0] == (4, "unsat") and s.ii > 4 and s.status == "optimal"
    assert solve(subtiled(), backend).ii == 4


@pytest.mark.parametrize("backend", ["cpsat"])   # z3 needs > 10 s to refute I=4 here
def test_forbidding_cross_warp_communication_moves_search_on(backend):
    free = solve(rescaled(), backend)
    assert (free.ii, free.status) == (4, "optimal") and free.get("cross_warp")
    banned = solve(rescaled(), backend, no_cross_warp=True)
    assert results(banned)[0] == (4, "unsat")
    assert banned.ii == 5 and banned.status == "optimal" and banned.get("cross_warp") == []


@pytest.mark.parametrize("backend", BACKENDS)
def test_streaming_load_on_its_own_group_with_depth(backend):
    g = subtiled(load=True)
    s = solve(g, backend)
    assert (s.ii, s.status) == (4, "optimal")
    w = s.warp_map
    assert w["load_k"] == s.get("warp_groups")["variable_latency"] == 2
    assert all(w[o] != 2 for o in w if o != "load_k")
    depth = s.get("streaming")["load_k"]
    assert depth["min_buffers"] >= 1 and depth["max_buffers_fit"] > depth["min_buffers"]
    assert s.get("memory")["peak"]["smem"] == 32 * 1024 * depth["min_buffers"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_register_limit_per_group_moves_search_on(backend):
    # Figure 1 with 32 KB values on one warp group: at I=2 the next S overlaps P and O (96 KB live);
    # 160 registers per thread (80 KB) refuses that, and I=3 (one stage, 64 KB) fits.
    loose = solve(figure1(regs=32 * 1024), backend)
    tight = solve(figure1(regs=32 * 1024), backend, reg_limit=160)
    assert loose.ii == 2 and loose.get("memory")["peak"]["registers"] == 96 * 1024
    assert results(tight)[0] == (2, "unsat") and tight.ii == 3 and tight.status == "optimal"
    assert tight.get("liveness")["registers_per_group"]["peak"]["0"] <= 160 * 4 * 128
