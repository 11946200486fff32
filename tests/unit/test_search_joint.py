"""Algorithm 1's driver and the joint checker: every family reports a broken schedule."""
import dataclasses

import pytest

from tests.conformance.joint_graphs import UNIT, figure1, subtiled
from twill.graph.model import Dep, LoopGraph, Op, Reservation
from twill.machine.model import load_machine
from twill.schedule.verify import verify
from twill.solve.joint_problem import JointProblem
from twill.solve.search import JointOptions, joint_search

H100 = load_machine("h100")


@pytest.fixture(scope="module")
def pingpong():
    g = subtiled(load=True)
    s = joint_search(g, H100, JointOptions(time_limit=10, scale=UNIT))
    assert s.status == "optimal" and verify(g, H100, s) == []
    return g, s


def families(g, s):
    return {v.family for v in verify(g, H100, s)}


def test_checker_flags_warp_and_variable_latency(pingpong):
    g, s = pingpong
    w = dict(s.warp)
    w["load_k"] = 0
    assert "variable-latency" in families(g, dataclasses.replace(s, warp=tuple(w.items())))
    del w["load_k"]
    assert families(g, dataclasses.replace(s, warp=tuple(w.items()))) == {"warp"}


def test_checker_flags_concurrency_when_subtiles_share_a_group(pingpong):
    g, s = pingpong
    w = {k: (0 if v == 1 else v) for k, v in s.warp}
    vs = verify(g, H100, dataclasses.replace(s, warp=tuple(w.items())))
    assert any(v.family == "concurrency" and "exp_" in v.where for v in vs)


def test_checker_flags_cross_warp_delay_and_no_cross_warp(pingpong):
    g, s = pingpong
    w = dict(s.warp)
    w["gemm2_a"] = 1 - w["exp_a"]          # exp_a -> gemm2_a now crosses groups with no time for the spill
    vs = verify(g, H100, dataclasses.replace(s, warp=tuple(w.items())))
    assert any(v.family == "cross-warp" and v.where.startswith("exp_a->gemm2_a") for v in vs)
    banned = dataclasses.replace(s, warp=tuple(w.items())).with_extra(joint={**s.get("joint"), "no_cross_warp": True})
    assert any("no transfer" in v.expected for v in verify(g, H100, banned))


def test_checker_recomputes_memory_and_register_limits(pingpong):
    g, s = pingpong
    tight = s.with_extra(joint={**s.get("joint"), "reg_limit_bytes": 1024,
                                "memory_capacity": {"registers": 262144, "smem": 1024, "tmem": 0}})
    fams = [v.family for v in verify(g, H100, tight)]
    assert "register-limit" in fams and "memory" in fams
    lied = s.with_extra(memory={"peak": {"registers": 1, "smem": 1, "tmem": 0}})
    assert any(v.where == "reported peak" for v in verify(g, H100, lied))


def test_progress_callback_and_trace():
    calls, msgs = [], []
    s = joint_search(figure1(blocking=True), H100, JointOptions(time_limit=10, scale=UNIT),
                     progress=lambda i, length, sec: calls.append((i, length, sec)))
    assert [c[:2] for c in calls] == [(e["ii"], e["length"] if isinstance(e["length"], int) else e["length"][0])
                                      for e in s.get("search")]
    assert all(sec >= 0 for *_, sec in calls)
    joint_search(figure1(), H100, JointOptions(time_limit=10, scale=UNIT), progress=msgs.append)
    assert msgs and msgs[0].startswith("joint search: I=2")


def test_each_length_mode_tries_every_length_in_turn():
    s = joint_search(figure1(blocking=True), H100, JointOptions(time_limit=10, scale=UNIT, mode="each_length"))
    trace = s.get("search")
    assert trace[0] == {**trace[0], "ii": 2, "length": 4, "result": "unsat"}
    assert s.status == "optimal" and trace[-1]["result"] == "sat" and trace[-1]["length"] == s.length
    assert all(isinstance(e["length"], int) for e in trace)


def test_schedule_round_trips_through_json(pingpong):
    from twill.schedule.model import Schedule

    g, s = pingpong
    back = Schedule.from_dict(s.to_dict())
    assert back.warp_map == s.warp_map and verify(g, H100, back) == []
    assert back.get("search") == s.get("search") and back.get("cross_warp") == s.get("cross_warp")


class _Scripted:
    """A joint backend that answers by I from a script: "sat", "unsat" or "timeout"; a "sat" is
    the sequential schedule S, P, O on one group (valid at every I >= 3 of Figure 1)."""

    name = "scripted"

    def __init__(self, script):
        self.script, self.calls = script, []

    def solve(self, q, options):
        from twill.solve.problem import Solution

        first = self.script[q.ii]
        answer = first if isinstance(first, str) else first[len([c for c in self.calls if c[0] == q.ii])]
        self.calls.append((q.ii, options.time_limit, answer))
        if answer == "sat":
            return Solution("optimal", {"start": {"S": 0, "P": 1, "O": 2}, "warp": {"S": 0, "P": 0, "O": 0},
                                        "length": 3}, {"seconds": 0.0})
        return Solution("infeasible" if answer == "unsat" else "timeout", {}, {"seconds": 0.0})


def test_search_gallops_past_timeouts_then_closes_the_gap(monkeypatch):
    """Three refutations time out in the short pass: the search gallops (+1, +2) to a satisfiable I,
    then retries every open I below it at the full limit, smallest first; the one still open is
    the reported lower bound, never a claim of optimality."""
    import twill.solve.search as search

    # 32 KB register tiles: their spill times put the ceiling at I = 8, above the gallop's 7.
    g = dataclasses.replace(figure1(regs=32 * 1024), deps=tuple(d for d in figure1().deps if d.src != d.dst))
    script = {2: ["timeout", "unsat"], 3: ["timeout", "timeout"], 4: ["timeout", "sat"], 5: "timeout", 7: "sat"}
    fake = _Scripted(script)
    monkeypatch.setattr(search, "get_joint_backend", lambda name: fake)
    s = joint_search(g, H100, JointOptions(time_limit=20, scale=UNIT))
    assert [(i, a) for i, _t, a in fake.calls] == [(2, "timeout"), (3, "timeout"), (4, "timeout"), (5, "timeout"),
                                                   (7, "sat"), (2, "unsat"), (3, "timeout"), (4, "sat")]
    assert [t for _i, t, _a in fake.calls][:5] == [2.0] * 5 and fake.calls[-1][1] == 20
    assert [e["phase"] for e in s.get("search")] == ["ascend"] * 3 + ["gallop"] * 2 + ["close"] * 3
    assert (s.ii, s.status, s.lower_bound) == (4, "feasible", 3) and s.gap == pytest.approx(0.25)
    assert verify(g, H100, s) == []


def test_single_thread_issued_ops_may_take_the_issue_warp_and_the_checker_keeps_others_off():
    """Figure 1 with its GEMMs issued by one thread (as Blackwell's MMAs are): CP-SAT and z3 find the
    same (I, L); CP-SAT's tie-break puts the GEMMs on the issue warp; moving the exponential there is a
    warp violation."""
    from twill.solve.joint_problem import JointProblem
    from twill.solve.problem import ModuloProblem

    g = figure1(blocking=True)
    mp = ModuloProblem.from_graph(g, H100.units)
    p = JointProblem(mp.nodes, mp.cycles, mp.rrt, mp.edges, mp.capacity, "fig1", blocking=(True, False, False),
                     single_warp=(True, False, True), warp_groups=1)
    assert p.issue_group == 1 and p.groups_of(0) == (0, 1) and p.groups_of(1) == (0,)
    got = {b: joint_search(p, H100, JointOptions(time_limit=10, scale=UNIT), backend=b) for b in ("cpsat", "z3")}
    for s in got.values():
        assert s.status == "optimal" and verify(g, H100, s) == [] and s.warp_map["P"] == 0
    assert (got["cpsat"].ii, got["cpsat"].length) == (got["z3"].ii, got["z3"].length) == (2, 4)
    s = got["cpsat"]
    assert s.warp_map["S"] == s.warp_map["O"] == 1
    bad = dataclasses.replace(s, warp=tuple((n, 1 if n == "P" else w) for n, w in s.warp))
    assert "warp" in families(g, bad)


def test_a_problem_no_I_satisfies_is_refuted_up_to_the_ceiling_and_no_further():
    """A producer and its consumer hold 200 KB of registers together, over one group's limit, at
    every I: the search refutes each I up to where the iterations no longer overlap and stops there
    (before the ceiling it climbed until the model's horizon overflowed 64 bits: fa3 on b200)."""
    p = JointProblem.from_graph(figure1(regs=100 * 1024), H100, 4, scale=UNIT)
    s = joint_search(p, H100, JointOptions(time_limit=10, scale=UNIT))
    tried = sorted({e["ii"] for e in s.get("search") if isinstance(e["ii"], int)})
    assert s.status == "infeasible" and tried[-1] == p.ii_ceiling() < 400
    assert s.get("search_summary")["ii_ceiling"] == p.ii_ceiling()
    assert all(e["result"] == "unsat" for e in s.get("search"))


def test_the_gallop_stops_at_the_ceiling(monkeypatch):
    """Every solve times out: the gallop (+1, +2, +4, ...) ends with the ceiling itself, never above. For the one
    partition (the route's last resort) the iteration laid out op after op there, which the checker accepts, is the
    schedule (feasible, not proved); for warp groups the search times out (the route has fallbacks after it)."""
    import twill.solve.search as search

    g = dataclasses.replace(figure1(), deps=tuple(d for d in figure1().deps if d.src != d.dst))
    ceiling = JointProblem.from_graph(g, H100, scale=UNIT).ii_ceiling()
    fake = _Scripted({i: "timeout" for i in range(1, 10 * ceiling)})
    monkeypatch.setattr(search, "get_joint_backend", lambda name: fake)
    s = joint_search(g, H100, JointOptions(time_limit=20, scale=UNIT))
    tried = [i for i, _t, _a in fake.calls]
    assert s.status == "timeout" and max(tried) == tried[-1] == ceiling
    assert [e["phase"] for e in s.get("search")][3:] == ["gallop"] * (len(tried) - 3)
    one = JointOptions(time_limit=20, scale=UNIT, one_partition=True, num_warps=4)
    ceiling = JointProblem.from_graph(g, H100, scale=UNIT, one_partition=True, num_warps=4).ii_ceiling()
    s = joint_search(g, H100, one)
    assert s.status == "feasible" and s.ii == ceiling and s.lower_bound < s.ii and verify(g, H100, s) == []
    assert s.get("search")[-1]["phase"] == "laid out"


def test_lookahead_pairs_are_the_dots_a_dot_feeds_with_the_readers_between():
    from twill.solve.joint_problem import lookahead_pairs
    g = subtiled(load=True)
    ids = [o.id for o in g.ops]
    got = [(ids[a], ids[b], [ids[r] for r in rs]) for a, b, rs in lookahead_pairs(g)]
    assert got == [("gemm_a", "gemm2_a", ["exp_a"]), ("gemm_b", "gemm2_b", ["exp_b"])]
    assert lookahead_pairs(g, (None,)) == lookahead_pairs(g)      # ops not split: every pair
    assert lookahead_pairs(g, (0,)) == ()                          # no op of sub-tile 0


def test_lookahead_puts_the_second_dot_an_iteration_after_the_first_and_the_checker_holds_it():
    """Figure 1 under LOOKAHEAD: O(j) issues after S(j + 1) and before P(j + 1) (t_S + I <= t_O < t_P + I),
    in both backends' schedules (the search runs CP-SAT; the z3 cross-check is the property test's); a
    schedule that breaks it is flagged."""
    g = figure1(blocking=True)
    s = joint_search(g, H100, JointOptions(time_limit=10, scale=UNIT, lookahead=(None,)))
    assert s.status == "optimal" and verify(g, H100, s) == []
    st, ii = s.start_map, s.ii
    assert st["S"] + ii <= st["O"] < st["P"] + ii
    plain = joint_search(g, H100, JointOptions(time_limit=10, scale=UNIT))
    assert plain.start_map["O"] < plain.start_map["S"] + plain.ii      # without it, O(j) runs before S(j + 1)
    assert s.get("joint")["lookahead"] == [["S", "O", ["P"]]]
    late = dataclasses.replace(s, length=s.length + ii,     # O(j) after P(j + 1): the upper bound broken
                               start=tuple((k, v + ii if k == "O" else v) for k, v in s.start))
    assert families(g, late) == {"lookahead"}
    early = plain.with_extra(joint=dict(plain.get("joint"), lookahead=[["S", "O", ["P"]]]))   # O(j) before S(j + 1)
    assert families(g, early) == {"lookahead"}


def test_a_kernel_of_more_warps_than_a_cta_specialises_is_one_partition_holding_its_own_loads():
    """Liger's 32-warp cross entropy (here the sub-tiled graph at 32 warps): as specialised, refused (the groups
    and the loads' group exceed the budget); as one partition (the Gluon route), one compute group of all 32
    warps that holds the loads too, its register limit the CTA's capacity; CP-SAT and z3 agree; the checker
    refuses a second group or a loads' group under that claim."""
    from twill.errors import MachineError

    g = subtiled(num_warps=32, load=True)
    with pytest.raises(MachineError, match="more warps than a CTA may specialise"):
        JointProblem.from_graph(g, H100, scale=UNIT)
    p = JointProblem.from_graph(g, H100, scale=UNIT, one_partition=True, reg_limit=64)
    assert (p.warp_groups, p.warps_per_group, p.vl_group) == (1, 32, None)
    assert dict(p.memory_capacity)["registers"] == p.reg_limit == 64 * 4 * 1024
    got = {b: joint_search(p, H100, JointOptions(time_limit=10, scale=UNIT), backend=b) for b in ("cpsat", "z3")}
    for s in got.values():
        assert s.status == "optimal" and verify(g, H100, s) == [] and set(s.warp_map.values()) == {0}
        assert s.get("joint")["one_partition"] is True
    assert (got["cpsat"].ii, got["cpsat"].length) == (got["z3"].ii, got["z3"].length)
    s = got["cpsat"]
    two = s.with_extra(joint={**s.get("joint"), "compute_groups": 2})
    assert "warp" in families(g, two)
    unclaimed = s.with_extra(joint={k: v for k, v in s.get("joint").items() if k != "one_partition"})
    assert "variable-latency" in families(g, unclaimed)


def test_a_register_limit_no_I_meets_ends_at_the_refuted_ceiling_without_claiming_infeasible(monkeypatch):
    """400 KB of registers a value: no I fits. After ``PROBE_AFTER`` I refuted in a row the ceiling is tried, refuted
    too, and the search ends there: status timeout (the I between not searched), said "ceiling refuted". Without
    the probe the same problem is refuted I by I up to the ceiling: infeasible, the probe's answer, at every I."""
    import twill.solve.search as search

    p = JointProblem.from_graph(figure1(regs=400 * 1024), H100, 4, scale=UNIT)
    s = joint_search(p, H100, JointOptions(time_limit=10, scale=UNIT))
    trace = s.get("search")
    summary = s.get("search_summary")
    assert s.status == "timeout" and summary["stopped"] == "ceiling refuted" and not summary["all_refuted"]
    assert [e["phase"] for e in trace if e["phase"] != "bound"][-1] == "probe" and trace[-1]["ii"] == p.ii_ceiling()
    ascended = [e["ii"] for e in trace if e["phase"] == "ascend"]
    assert len(ascended) == search.PROBE_AFTER and ascended[-1] + 1 < p.ii_ceiling()
    from types import SimpleNamespace
    from twill.gluon_route import _say_candidate
    said = []
    _say_candidate(SimpleNamespace(subtiles=1, reg_limit=200, hold=True, cycles=float("inf"), schedule=s, budget=7.5),
                   said.append)
    assert f"to {ascended[-1]} refuted, and its ceiling I = {p.ii_ceiling()}" in said[0], said
    assert "not a proof" in said[0] and "--total-time" not in said[0], said
    monkeypatch.setattr(search, "PROBE_AFTER", 10 ** 6)
    full = joint_search(p, H100, JointOptions(time_limit=10, scale=UNIT))
    assert full.status == "infeasible" and full.get("search_summary")["stopped"] == "ceiling"


def test_a_ceiling_that_has_a_schedule_is_dropped_and_the_ascent_goes_on(monkeypatch):
    """The probe satisfiable: its schedule is not kept; the ascent finds the smallest I above the refuted ones."""
    import twill.solve.search as search

    g = dataclasses.replace(figure1(regs=100 * 1024), deps=tuple(d for d in figure1().deps if d.src != d.dst))
    p = JointProblem.from_graph(g, H100, scale=UNIT)
    monkeypatch.setattr(search, "PROBE_AFTER", 2)
    first = 2
    ceiling = p.ii_ceiling()
    assert ceiling > first + 3
    fake = _Scripted({first: "unsat", first + 1: "unsat", first + 2: "sat", ceiling: "sat"})
    monkeypatch.setattr(search, "get_joint_backend", lambda name: fake)
    s = joint_search(g, H100, JointOptions(time_limit=20, scale=UNIT))
    assert [i for i, _t, _a in fake.calls] == [first, first + 1, ceiling, first + 2]
    assert s.ii == first + 2 and s.status == "optimal"
    assert [e["phase"] for e in s.get("search")] == ["ascend", "ascend", "probe", "ascend"]


def test_a_search_that_ends_at_its_step_bound_says_so_not_timeout():
    """The same unsatisfiable problem with at most 5 values of I: every I tried refuted, the ceiling not reached;
    the summary says the search stopped at its step bound (the route's line then says that, not "timeout")."""
    p = JointProblem.from_graph(figure1(regs=100 * 1024), H100, 4, scale=UNIT)
    s = joint_search(p, H100, JointOptions(time_limit=10, scale=UNIT, max_steps=5))
    summary = s.get("search_summary")
    assert s.status == "timeout" and summary["stopped"] == "steps" and summary["all_refuted"], summary
    assert summary["last_ii"] == s.lower_bound + 4 < summary["ii_ceiling"]


def _two_copies():
    """Two pointer-tile copies (4 units from issue to data, 1 of them on the LSU) feeding a GEMM whose instance
    three back releases their ring slots (rings 3 deep; an edge from the consumer group: each copy waits on it)."""
    def copy(i):
        return Op(i, "load", "lsu", cycles=4, rrt=(Reservation("lsu", 0, 1),), variable_latency=True, streaming=True,
                  ops=("tt.load", "ttg.local_alloc"))
    ops = (copy("load_a"), copy("load_b"),
           Op("gemm", "dot", "tc", cycles=1, rrt=(Reservation("tc", 0, 1),), attrs=(("async", True),)))
    deps = tuple(Dep(x, "gemm", 4, 0) for x in ("load_a", "load_b")) + \
        tuple(Dep("gemm", x, 1, 3) for x in ("load_a", "load_b")) + (Dep("gemm", "gemm", 1, 1),)
    return LoopGraph("two_copies", ops, deps, meta=(("num_warps", 4),))


def test_a_producer_copy_holds_its_group_for_its_issue_not_its_latency():
    """Run 173: the Gluon route's producer issues each copy (TMA or cp.async) and waits for none; its consumers wait
    on the ring's barrier. With ``async_copies`` a copy into shared memory (not a tile its readers hold in registers,
    which the consumers load) keeps its group busy while it holds the LSU (1 unit), so the
    two waiting copies fit in II 2 (the LSU's bound); held for their latency (4 units each, one after the other) they
    need II 8 (refuted without a solve), and 9 under Algorithm 1 (at 8 the GEMM ends after L 8, the one stage the
    modulo schedule's length allows). Both backends agree; the checker holds each schedule to the busy times it was
    solved under."""
    g = _two_copies()
    registers = dataclasses.replace(g, ops=tuple(dataclasses.replace(o, ops=("tt.load",)) for o in g.ops))
    assert JointProblem.from_graph(registers, H100, scale=UNIT, async_copies=True).busy[:2] == (4, 4)
    # FLA's chunk_kkt: K goes to shared memory for the GEMM and is scaled in registers too (run 177: solved as an
    # asynchronous copy, its 4-stage kernel ran x0.89): its readers' warps load it and wait
    scaled = Op("scale", "elementwise", "alu", cycles=1, rrt=(Reservation("alu", 0, 1),))
    read = dataclasses.replace(g, ops=g.ops + (scaled,), deps=g.deps + (Dep("load_b", "scale", 4, 0),))
    assert JointProblem.from_graph(read, H100, scale=UNIT, async_copies=True).busy[:2] == (1, 4)
    held = JointProblem.from_graph(g, H100, scale=UNIT)
    issued = JointProblem.from_graph(g, H100, scale=UNIT, async_copies=True)
    assert held.busy[:2] == (4, 4) and issued.busy[:2] == (1, 1)
    assert held.concurrency_bound()[0] == 8
    for b in ("cpsat", "z3"):
        slow = joint_search(held, H100, JointOptions(time_limit=10, scale=UNIT), backend=b)
        fast = joint_search(issued, H100, JointOptions(time_limit=10, scale=UNIT), backend=b)
        assert (slow.status, slow.ii, fast.status, fast.ii) == ("optimal", 9, "optimal", 2), b
        assert verify(g, H100, slow) == [] and verify(g, H100, fast) == []
        claimed = fast.with_extra(joint={**fast.get("joint"), "busy": {"load_a": 4, "load_b": 4, "gemm": 1}})
        assert "concurrency" in families(g, claimed)


def test_a_load_its_readers_issue_holds_them_for_its_issue_with_issued_loads():
    """``--issued-loads`` (experimental): a pointer load its readers hold in registers (the Gluon route's consumers issue
    it, and run on until they read it: session 69's replay, awq's loop run) keeps its group busy for its LSU transfer
    (1 unit), its latency (4) left on the edge to its reader; without the option it is held for its latency, and so is
    every load where the option is off. A copy into shared memory is ``async_copies``' and keeps its latency here.
    Both backends find the smaller I; the checker holds each schedule to the busy times it was solved under."""
    g = _two_copies()
    registers = dataclasses.replace(g, ops=tuple(dataclasses.replace(o, ops=("tt.load",)) for o in g.ops))
    held = JointProblem.from_graph(registers, H100, scale=UNIT)
    issued = JointProblem.from_graph(registers, H100, scale=UNIT, issued_loads=True)
    assert held.busy[:2] == (4, 4) and issued.busy[:2] == (1, 1) and issued.busy[2] == held.busy[2]
    assert JointProblem.from_graph(g, H100, scale=UNIT, issued_loads=True).busy[:2] == (4, 4)   # ring copies
    assert issued.edges == held.edges and issued.cycles == held.cycles       # the latency stays on the edges
    for b in ("cpsat", "z3"):
        slow = joint_search(held, H100, JointOptions(time_limit=10, scale=UNIT), backend=b)
        fast = joint_search(issued, H100, JointOptions(time_limit=10, scale=UNIT), backend=b)
        assert (slow.status, fast.status) == ("optimal", "optimal") and fast.ii < slow.ii, b
        assert verify(registers, H100, slow) == [] and verify(registers, H100, fast) == []


def test_extra_stages_let_L_pass_the_modulo_schedules_stages_where_the_groups_need_it():
    """Algorithm 1 tries L up to ceil(L_M / I) * I: the modulo schedule's stages. The copies held for their latency
    need II 8 on their group, where the modulo schedule fits one stage and the GEMM ends after L 8: refuted, so 9.
    With one stage more (``--extra-stages 1``) the GEMM runs in the second stage at II 8, the bound (w8a16: the loads'
    group pushed it to one stage at I=225; two stages at I=169). Both backends agree; the checker passes it."""
    g = _two_copies()
    held = JointProblem.from_graph(g, H100, scale=UNIT)
    for b in ("cpsat", "z3"):
        one = joint_search(held, H100, JointOptions(time_limit=10, scale=UNIT), backend=b)
        two = joint_search(held, H100, JointOptions(time_limit=10, scale=UNIT, extra_stages=1), backend=b)
        assert (one.status, one.ii, one.stages) == ("optimal", 9, 1), b
        assert (two.status, two.ii, two.stages) == ("optimal", 8, 2), b
        assert verify(g, H100, two) == []
        assert "plus 1 stage(s)" in two.get("search_summary")["scope"] and two.get("extra_stages") == 1


def _solves(s):
    return [e for e in s.get("search") if e.get("phase") not in ("bound", "inherited")]


def test_a_search_starts_above_the_I_a_looser_search_refuted_and_proves_the_same():
    """Under 200 registers a thread I = 2 is refuted and I = 3 optimal; the search under 160 (tighter: each of its
    schedules is one of the looser problem's), told that every I below 3 was refuted, starts at 3: the same (I, L)
    and the same optimality proof, without solving I = 2 again; the trace says where the refutation came from."""
    g = figure1(regs=40 * 1024)
    loose = joint_search(g, H100, JointOptions(time_limit=10, scale=UNIT, reg_limit=200))
    assert (loose.status, loose.ii, loose.get("refuted_below")) == ("optimal", 3, 3)
    alone = joint_search(g, H100, JointOptions(time_limit=10, scale=UNIT, reg_limit=160))
    told = joint_search(g, H100, JointOptions(time_limit=10, scale=UNIT, reg_limit=160,
                                              refuted_below=loose.get("refuted_below")))
    assert (told.status, told.ii, told.length, told.lower_bound) == (alone.status, alone.ii, alone.length,
                                                                     alone.lower_bound) == ("optimal", 3, told.length, 3)
    assert {e["ii"] for e in _solves(alone)} == {2, 3} and {e["ii"] for e in _solves(told)} == {3}
    assert [e["ii"] for e in told.get("search") if e["phase"] == "inherited"] == [[2, 2]]
    assert verify(g, H100, told) == []


def test_an_inherited_refutation_keeps_an_unsatisfiable_problem_infeasible():
    """Under 128 registers no I fits: told that I = 2 was refuted, the search refutes the rest up to the ceiling and
    still says infeasible (the inherited I counts as refuted, as the bound's do)."""
    g = figure1(regs=40 * 1024)
    alone = joint_search(g, H100, JointOptions(time_limit=10, scale=UNIT, reg_limit=128))
    told = joint_search(g, H100, JointOptions(time_limit=10, scale=UNIT, reg_limit=128, refuted_below=3))
    assert alone.status == told.status == "infeasible"
    assert len(_solves(told)) == len(_solves(alone)) - 1


def test_the_ceiling_is_seeded_with_the_op_after_op_layout_which_the_checker_accepts(monkeypatch):
    """At the ceiling I the search's hint is the iteration laid out op after op (``sequential_starts``), not the
    modulo seed: a solver that finds only what it is handed finds a schedule there, kept where every I below timed
    out (axolotl's DoRA norm: CP-SAT timed out at its ceiling from the modulo seed, no kernel written), feasible
    with the gap to the modulo bound, and the independent checker accepts it."""
    import twill.solve.search as search
    from twill.solve.problem import Solution

    g = dataclasses.replace(figure1(), deps=())     # three independent ops: the modulo seed starts them together
    p = JointProblem.from_graph(g, H100, scale=UNIT)
    calls = []

    class Handed:
        name = "handed"

        def solve(self, q, options):
            calls.append(q.ii)
            if q.hint != p.sequential_starts() or q.ii != p.ii_ceiling():
                return Solution("timeout", {}, {"seconds": 0.0})
            end = max(t + q.problem.cycles[v] for v, t in enumerate(q.hint))
            if not q.lo <= end <= q.hi:
                return Solution("infeasible", {}, {"seconds": 0.0})
            return Solution("feasible", {"start": dict(zip(q.problem.nodes, q.hint)),
                                         "warp": {n: 0 for n in q.problem.nodes}, "length": end}, {"seconds": 0.0})

    monkeypatch.setattr(search, "get_joint_backend", lambda name: Handed())
    s = joint_search(g, H100, JointOptions(time_limit=20, scale=UNIT))
    assert s.status == "feasible" and s.ii == p.ii_ceiling() and s.lower_bound < s.ii, (s.status, s.ii)
    assert p.ii_ceiling() in calls and verify(g, H100, s) == []


def test_the_probes_ceiling_schedule_is_kept_only_where_asked(monkeypatch):
    """Two I refuted, the probe satisfiable at the ceiling, the next I timing out at the step bound: the ceiling's
    schedule kept (feasible, the lower bound the first I not refuted); not with ``keep_ceiling`` off, as the Gluon
    route's warp-specialized splits search (a timeout sends the route on to its other operand model and its one
    partition: the fp8 weight GEMM's two sub-tiles had kept I = 1248, the route found I = 216 after it)."""
    import twill.solve.search as search

    g = dataclasses.replace(figure1(regs=100 * 1024), deps=tuple(d for d in figure1().deps if d.src != d.dst))
    p = JointProblem.from_graph(g, H100, scale=UNIT)
    monkeypatch.setattr(search, "PROBE_AFTER", 2)
    first, ceiling = 2, p.ii_ceiling()
    script = {**{i: "timeout" for i in range(first, ceiling)}, first: "unsat", first + 1: "unsat", ceiling: "sat"}
    for keep in (True, False):
        fake = _Scripted(script)
        monkeypatch.setattr(search, "get_joint_backend", lambda name: fake)
        s = joint_search(g, H100, JointOptions(time_limit=20, scale=UNIT, max_steps=4, keep_ceiling=keep))
        assert [i for i, _t, _a in fake.calls][:4] == [first, first + 1, ceiling, first + 2]
        if keep:            # the gap closed below it at the full limit, each I timing out
            assert (s.status, s.ii, s.lower_bound) == ("feasible", ceiling, first + 2) and verify(g, H100, s) == []
        else:
            assert s.status == "timeout" and not s.start, (s.status, s.ii)


def test_the_gluon_routes_refusal_says_whether_its_searches_timed_out_or_were_refuted():
    # session 92's sweep: FLA's NSA top-k said "no joint schedule was found for any row split" right after the
    # top-level schedule's "optimal (proved)": its row splits' searches had timed out, which the line did not say
    from twill.gluon_route import Candidate, GluonResult, _choose
    from twill.schedule.model import Schedule

    def candidate(status):
        return Candidate(1, None, None, Schedule(ii=0, length=0, start=(), status=status, lower_bound=1), {"scale": 1.0})

    said = _choose(GluonResult([candidate("timeout"), candidate("infeasible")])).reason
    assert said.startswith("no joint schedule was found for any row split") and "timed out" in said, said
    said = _choose(GluonResult([candidate("infeasible")])).reason
    assert said.endswith("(every search refuted)"), said


def test_the_one_partition_keeps_its_op_after_op_layout_where_the_budget_ended_before_the_ceiling(monkeypatch):
    """The route's last resort (one partition, no solve found a schedule) where the ascent stopped before the ceiling
    was probed (FastDeploy's WINT2 MoE GEMM: every call timed out, no kernel written): the layout is a modulo schedule
    at the ceiling itself, kept feasible where the checker accepts it; a warp-specialized search keeps nothing."""
    import twill.solve.search as search
    from twill.solve.problem import Solution

    class Slow:
        name = "slow"
        calls: list[int] = []

        def solve(self, q, options):
            self.calls.append(q.ii)
            return Solution("timeout", {}, {"seconds": 0.0})

    g = figure1()
    monkeypatch.setattr(search, "get_joint_backend", lambda name: Slow())
    one = joint_search(g, H100, JointOptions(time_limit=20, scale=UNIT, one_partition=True, max_steps=2))
    p = JointProblem.from_graph(g, H100, scale=UNIT, one_partition=True)
    assert p.ii_ceiling() not in Slow.calls and len(Slow.calls) == 2, Slow.calls
    assert (one.status, one.ii) == ("feasible", p.ii_ceiling()) and one.lower_bound < one.ii
    assert one.get("search")[-1]["phase"] == "laid out" and verify(g, H100, one) == []
    ws = joint_search(g, H100, JointOptions(time_limit=20, scale=UNIT, max_steps=2))
    assert ws.status == "timeout" and not ws.start


def test_an_ascent_far_past_the_ceilings_probe_gallops_then_closes_the_gap(monkeypatch):
    """PROBE_AFTER I refuted, the ceiling's probe timing out, as many I refuted again: the search gallops (+1, +2,
    +4) to a satisfiable I and closes the gap below it smallest first (FastDeploy's WINT2 MoE GEMM walked 398 I one
    by one, its budget gone before any schedule); the smallest satisfiable I is then proved optimal, every I below
    refuted."""
    import twill.solve.search as search

    g = dataclasses.replace(figure1(regs=100 * 1024), deps=tuple(d for d in figure1().deps if d.src != d.dst))
    monkeypatch.setattr(search, "PROBE_AFTER", 4)
    monkeypatch.setattr(JointProblem, "ii_ceiling", lambda self: 200)
    first = 2
    script = {**{i: "unsat" for i in range(first, first + 12)}, **{i: "sat" for i in range(first + 12, 200)},
              200: "timeout"}
    fake = _Scripted(script)
    monkeypatch.setattr(search, "get_joint_backend", lambda name: fake)
    s = joint_search(g, H100, JointOptions(time_limit=20, scale=UNIT))
    tried = [i for i, _t, _a in fake.calls]
    f = first
    assert tried == [f, f + 1, f + 2, f + 3, 200, f + 4, f + 5, f + 6, f + 7, f + 8, f + 10, f + 14, f + 9, f + 11,
                     f + 12], tried
    assert (s.ii, s.status) == (f + 12, "optimal")
    phases = [e["phase"] for e in s.get("search") if e["phase"] != "bound"]
    assert phases[:9] == ["ascend"] * 4 + ["probe"] + ["ascend"] * 4 and phases[9:12] == ["gallop"] * 3, phases


def test_an_ascent_whose_gallop_finds_nothing_goes_on_where_it_stopped(monkeypatch):
    """The gallop's larger I time out (FastDeploy's WINT2 GEMM: the search then stopped with most of its budget
    left): the ascent resumes after the I it stopped at, skipping those the gallop refuted, and finds the schedule
    there."""
    import twill.solve.search as search

    g = dataclasses.replace(figure1(regs=100 * 1024), deps=tuple(d for d in figure1().deps if d.src != d.dst))
    monkeypatch.setattr(search, "PROBE_AFTER", 4)
    monkeypatch.setattr(JointProblem, "ii_ceiling", lambda self: 40)
    f = 2
    script = {**{i: "unsat" for i in range(f, f + 11)}, f + 11: "sat", **{i: "timeout" for i in range(f + 12, 41)}}
    fake = _Scripted(script)
    monkeypatch.setattr(search, "get_joint_backend", lambda name: fake)
    s = joint_search(g, H100, JointOptions(time_limit=20, scale=UNIT))
    tried = [i for i, _t, _a in fake.calls]
    galloped = [f + 8, f + 10, f + 14, f + 22, 40]
    assert tried[:9] == [f, f + 1, f + 2, f + 3, 40, f + 4, f + 5, f + 6, f + 7], tried
    assert tried[9:14] == galloped and tried[14:] == [f + 9, f + 11], tried
    assert (s.ii, s.status) == (f + 11, "optimal")
