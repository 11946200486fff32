"""Random joint problems: CP-SAT and z3 agree on sat/unsat and on the smallest L; the checker
accepts every schedule either finds."""
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from twill.graph.model import Dep, LoopGraph, Op, Reservation
from twill.machine.model import load_machine
from twill.schedule.verify import verify
from twill.solve.joint_problem import JointAtIL, JointProblem
from twill.solve.problem import SolveOptions
from twill.solve.search import get_joint_backend

from crosscheck import cross_check  # noqa: E402 (tests/property, on the path)

H100 = load_machine("h100")
UNITS = ("tc", "sfu", "alu")


@st.composite
def graphs(draw):
    n = draw(st.integers(2, 5))
    ops = []
    for i in range(n):
        c = draw(st.integers(1, 2))
        unit = draw(st.sampled_from(UNITS))
        ops.append(Op(f"n{i}", "dot" if unit == "tc" else "elementwise", unit, cycles=c, rrt=(Reservation(unit, 0, c),),
                      regs=draw(st.sampled_from([0, 32768, 65536]))))
    deps = []
    for i in range(1, n):
        j = draw(st.integers(0, i - 1))
        deps.append(Dep(f"n{j}", f"n{i}", ops[j].cycles, 0, draw(st.booleans())))
    k = draw(st.integers(0, n - 1))
    deps.append(Dep(f"n{n - 1}", f"n{k}", ops[n - 1].cycles, 1, False))
    return LoopGraph("rand", tuple(ops), tuple(deps), meta=(("num_warps", draw(st.sampled_from([4, 8]))),))


@settings(max_examples=25, deadline=None)
@given(graphs(), st.integers(1, 5), st.integers(0, 2), st.booleans(), st.sampled_from([None, 128, 200]), st.booleans())
def test_cpsat_and_z3_agree(g, ii, extra_stage, no_cross, reg_limit, lookahead):
    p = JointProblem.from_graph(g, H100, scale=512.0, no_cross_warp=no_cross, reg_limit=reg_limit,
                                lookahead=(None,) if lookahead else ())
    cross_check(g, H100, p, ii, extra_stage)


@st.composite
def waiting_graphs(draw):
    """Loops whose ops sit on different units (a small ResMII) behind mostly blocking edges (a
    large busy sum of waiting ops), so that the concurrency bound is above the modulo II."""
    n = draw(st.integers(3, 5))
    ops = [Op(f"n{i}", "elementwise", UNITS[i % 3], cycles=(c := draw(st.integers(1, 3))),
              rrt=(Reservation(UNITS[i % 3], 0, c),)) for i in range(n)]
    deps = [Dep(f"n{draw(st.integers(0, i - 1))}", f"n{i}", 0, 0, draw(st.sampled_from([True, True, False])))
            for i in range(1, n)]
    deps = [Dep(d.src, d.dst, ops[int(d.src[1:])].cycles, 0, d.blocking) for d in deps]
    deps.append(Dep(f"n{n - 1}", f"n{draw(st.integers(0, n - 1))}", ops[n - 1].cycles, 1, False))
    return LoopGraph("waits", tuple(ops), tuple(deps), meta=(("num_warps", 4),))


@settings(max_examples=30, deadline=None, derandomize=True)
@given(st.one_of(graphs(), waiting_graphs()))
def test_concurrency_bound_never_changes_the_answer(g):
    """With one compute group every op's group is fixed and ``concurrency_bound`` refutes the I values
    below the waiting ops' busy sum without a solve: Algorithm 1 with and without it finds the same
    (I, L) and status, and CP-SAT refutes the I just below the bound for every L up to 6 stages."""
    from dataclasses import replace

    import twill.solve.joint_problem as jp
    from twill.solve.search import JointOptions, joint_search

    g = replace(g, meta=(("num_warps", 4),))
    p = JointProblem.from_graph(g, H100, scale=512.0)
    bound, _ = p.concurrency_bound()
    opts = JointOptions(time_limit=10, total_time=60, max_steps=40)
    with_bound = joint_search(g, H100, opts)
    saved = jp.JointProblem.concurrency_bound
    try:
        jp.JointProblem.concurrency_bound = lambda self: (0, "")
        without = joint_search(g, H100, opts)
    finally:
        jp.JointProblem.concurrency_bound = saved
    assert (with_bound.ii, with_bound.length, with_bound.status) == (without.ii, without.length, without.status)
    if with_bound.status in ("optimal", "feasible"):          # (some loops hold more registers than a group)
        assert with_bound.ii >= bound and verify(g, H100, with_bound) == []
    if bound > 1:
        ii = bound - 1
        for stages in range(1, 7):
            q = JointAtIL(p, ii, (stages - 1) * ii + 1, stages * ii)
            assert get_joint_backend("cpsat").solve(q, SolveOptions(time_limit=20)).status == "infeasible"


def _family_names(module):
    return [f.__name__ for f in module.FAMILIES]


def test_both_backends_post_the_same_constraint_families():
    """One function per family of Figures 4-6, the same names in both backends, each module's
    ``add_*`` functions exactly its FAMILIES."""
    import inspect

    from twill.solve.backends import cpsat_joint, z3_joint

    assert _family_names(cpsat_joint) == _family_names(z3_joint)
    for module in (cpsat_joint, z3_joint):
        defined = [n for n, f in inspect.getmembers(module, inspect.isfunction)
                   if n.startswith("add_") and f.__module__ == module.__name__]
        assert sorted(defined) == sorted(_family_names(module))


def test_family_by_family_the_backends_agree(monkeypatch):
    """Each family over the dependences alone, and every family but that one: CP-SAT and z3 find
    the same status and smallest L, so the two encodings of each family say the same thing (the
    starts, groups and lifetimes that the families read always stay). Leaving out capacity,
    concurrency, cross-warp spills, dependence, memory or registers changes some answer here."""
    import dataclasses

    from tests.conformance.joint_graphs import UNIT, figure1, rescaled, subtiled
    from twill.solve.backends import cpsat_joint, z3_joint
    from twill.solve.modulo import modulo_schedule

    base = {"add_uniqueness_completion", "add_warp_uniqueness", "add_lifetimes"}
    tight = dataclasses.replace(JointProblem.from_graph(figure1(regs=65536), H100, scale=UNIT, hold_async=True),
                                memory_capacity=(("registers", 200_000), ("smem", 0), ("tmem", 0)))
    problems = [JointProblem.from_graph(figure1(blocking=True), H100, scale=UNIT),
                JointProblem.from_graph(figure1(blocking=True, num_warps=8), H100, scale=UNIT,
                                        stage_order=(("O", "S"),)),
                JointProblem.from_graph(subtiled(load=True), H100, scale=UNIT, reg_limit=96),
                JointProblem.from_graph(rescaled(), H100, scale=UNIT, no_cross_warp=True), tight,
                JointProblem.from_graph(subtiled(), H100, scale=UNIT, lookahead=(None,))]
    steps = []
    for p in problems:                            # Algorithm 1's first step: the modulo seed's I and stages
        seed = modulo_schedule(p.modulo)
        stages = math.ceil(seed.length / seed.ii)
        steps.append(JointAtIL(p, seed.ii, (stages - 1) * seed.ii + 1, stages * seed.ii))
    names = set(_family_names(cpsat_joint))
    for family in sorted(names - base):
        for on in (base | {family, "add_dependence"}, names - {family}):
            with monkeypatch.context() as mp:
                for module in (cpsat_joint, z3_joint):
                    for other in names - on:
                        mp.setattr(module, other, lambda *a, **k: True)
                for q in steps:
                    a = get_joint_backend("cpsat").solve(q, SolveOptions(time_limit=20))
                    b = get_joint_backend("z3").solve(q, SolveOptions(time_limit=20))
                    got = [(x.status, x.values.get("length")) for x in (a, b)]
                    assert got[0] == got[1], (family, sorted(on), q)


@settings(max_examples=20, deadline=None)
@given(graphs(), st.integers(1, 5), st.integers(0, 2), st.data())
def test_cpsat_and_z3_agree_with_ops_held_together(g, ii, extra_stage, data):
    # TOGETHER (the Gluon route: results the code after the loop reads together): both backends agree, and the
    # checker, which each schedule passes, also checks the pair shares a compute group
    a, b = data.draw(st.lists(st.sampled_from([o.id for o in g.ops]), min_size=2, max_size=2, unique=True))
    p = JointProblem.from_graph(g, H100, scale=512.0, num_warps=8, together=((a, b),))
    assert p.params()["together"] == [[a, b]]
    cross_check(g, H100, p, ii, extra_stage)
