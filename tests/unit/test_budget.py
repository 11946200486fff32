"""Deterministic budgets (issue #14): every solver stops on a count of its own work, the searches add those up, and
the same problem gives the same schedule however slow or loaded the machine; the wall clock is only a safety cap,
and a result it ended says so."""
import random
import subprocess
import sys
import threading
import time

import pytest

from twill.graph.model import Dep, LoopGraph, Op, Reservation
from twill.machine.model import load_machine
from twill.schedule.text import summary
from twill.schedule.verify import verify
from twill.solve import budget as budget_mod
from twill.solve.backends.cpsat_base import cpsat_solver
from twill.solve.backends.cpsat_joint import CpSatJoint
from twill.solve.backends.scip import ScipModulo
from twill.solve.bounds import horizon
from twill.solve.joint_problem import JointAtIL, JointProblem
from twill.solve.modulo import modulo_schedule
from twill.solve.problem import ModuloAtII, ModuloProblem, SolveOptions
from twill.solve.search import JointOptions, joint_search

H100 = load_machine("h100")
KB = 1024
UNIT = 512.0


def random_loop(seed: int, n: int = 12) -> LoopGraph:
    """A joint problem of ``n`` ops on three units with register tiles, blocking waits and recurrences: small, but
    its refutations take CP-SAT longer than the few milliseconds of deterministic time the tests allow."""
    rnd = random.Random(seed)
    ops = []
    for i in range(n):
        kind, unit = rnd.choice([("dot", "tc"), ("sfu", "sfu"), ("elementwise", "alu")])
        c = rnd.randint(1, 4)
        ops.append(Op(f"n{i}", kind, unit, cycles=c, rrt=(Reservation(unit, 0, c),), regs=rnd.choice([8, 16, 32]) * KB,
                      attrs=(("async", True),) if kind == "dot" else ()))
    deps = [Dep(f"n{i}", f"n{j}", ops[i].cycles, 0, rnd.random() < 0.5)
            for i in range(n) for j in range(i + 1, n) if rnd.random() < 0.3]
    deps += [Dep(f"n{j}", f"n{i}", 1, 1) for i in range(n) for j in range(i + 1, n) if rnd.random() < 0.08]
    return LoopGraph("rand", tuple(ops), tuple(deps), meta=(("num_warps", 8),))


def _outcome(s):
    """Everything a schedule's search decided: the schedule, its proof, the calls made and their answers."""
    trace = [(e["ii"], e["length"], e["result"], e.get("phase"), e.get("work")) for e in s.get("search")]
    return (s.status, s.ii, s.length, s.start, s.warp, s.lower_bound, trace, s.get("budget")["spent"])


@pytest.fixture
def busy():
    """The machine slowed: a process spinning on a core and a thread spinning in this one (it takes the GIL
    from the search's Python between solver calls)."""
    proc = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    stop = threading.Event()

    def spinning() -> None:
        while not stop.is_set():
            pass

    spin = threading.Thread(target=spinning, daemon=True)
    spin.start()
    try:
        yield
    finally:
        stop.set()
        spin.join()
        proc.kill()
        proc.wait()


def test_a_budget_that_ends_the_search_gives_the_same_schedule_on_a_slowed_machine(busy, monkeypatch):
    """Seed 3 with 5 ms a call and 20 ms in all (deterministic): three I values time out, one is refuted, a fourth
    is satisfiable, and the budget ends the search before the gap is closed. Solved again with a busy core and a
    clock running ten times fast (as a machine ten times slower would read it), the search makes the same calls
    and returns the same schedule: nothing in it reads the clock but the safety cap."""
    g = random_loop(3)
    opts = JointOptions(time_limit=0.005, total_time=0.02, scale=UNIT)
    first = joint_search(g, H100, opts)
    b = first.get("budget")
    assert first.status == "feasible" and first.gap and verify(g, H100, first) == []
    assert b["stopped_by"] == "budget" and b["spent"] >= b["limit"] == 0.02 and b["reproducible"], b
    assert b["unit"] == "deterministic seconds"
    assert "ended by the budget" in summary(g, first).splitlines()[1]
    real = time.perf_counter
    t0 = real()
    monkeypatch.setattr(time, "perf_counter", lambda: t0 + 10 * (real() - t0))
    again = joint_search(g, H100, opts)
    assert _outcome(again) == _outcome(first)


def test_a_search_the_budget_ends_with_no_schedule_says_so(busy):
    """The same problem with 10 ms a call and 30 ms in all: three timeouts and no schedule; the summary says the
    budget stopped it (not the ceiling, not the step bound), twice alike."""
    g = random_loop(3)
    opts = JointOptions(time_limit=0.01, total_time=0.03, scale=UNIT)
    got = [joint_search(g, H100, opts) for _ in range(2)]
    s = got[0]
    assert s.status == "timeout" and s.get("search_summary")["stopped"] == "budget"
    assert s.get("budget")["stopped_by"] == "budget"
    assert _outcome(got[1]) == _outcome(s)


def test_the_wall_clock_cap_is_a_separate_limit_and_its_result_is_not_reproducible():
    """A wall-clock cap already spent stops the search before any call: said as the cap, not the budget, and the
    result is marked not reproducible; a solver call stopped by its own wall cap says so too."""
    g = random_loop(3)
    s = joint_search(g, H100, JointOptions(time_limit=10, total_time=100, scale=UNIT, wall_cap=1e-9))
    b = s.get("budget")
    assert s.status == "timeout" and s.get("search_summary")["stopped"] == "wall cap"
    assert b["stopped_by"] == "wall cap" and b["reproducible"] is False and b["limit"] == 100
    p = JointProblem.from_graph(g, H100, scale=UNIT)
    sol = CpSatJoint().solve(JointAtIL(p, 19, 26, 38), SolveOptions(time_limit=100, wall_limit=0.001))
    assert sol.status in ("timeout", "feasible") and sol.stats["stopped_by"] == "wall cap"


def test_cpsat_stops_on_deterministic_time_with_one_worker():
    """The parameters: the deterministic limit is the call's, the wall clock a far larger cap, the seed fixed, and one
    worker however many threads are asked for (the portfolio races; the interleaved search aborts OR-Tools 9.15 on
    some of these models); two threads asked give the same search as one."""
    one = cpsat_solver(SolveOptions(time_limit=2.0, seed=5)).parameters
    assert one.max_deterministic_time == 2.0 and one.max_time_in_seconds == budget_mod.wall_cap(2.0) > 2.0
    assert one.num_workers == 1 and not one.interleave_search and one.random_seed == 5
    two = cpsat_solver(SolveOptions(time_limit=2.0, threads=2, wall_limit=7.0)).parameters
    assert two.num_workers == 1 and not two.interleave_search and two.max_time_in_seconds == 7.0
    g = random_loop(3)
    got = [joint_search(g, H100, JointOptions(time_limit=0.005, total_time=0.02, scale=UNIT, threads=t)) for t in (1, 2)]
    assert _outcome(got[0]) == _outcome(got[1])


def _modulo_problem():
    rnd = random.Random(3)
    ops = []
    for i in range(16):
        unit = rnd.choice(["tc", "sfu", "alu"])
        c = rnd.randint(3, 9)
        ops.append(Op(f"n{i}", {"tc": "dot", "sfu": "sfu", "alu": "elementwise"}[unit], unit, cycles=c,
                      rrt=(Reservation(unit, 0, c),)))
    deps = [Dep(f"n{i}", f"n{j}", ops[i].cycles, 0) for i in range(16) for j in range(i + 1, 16) if rnd.random() < 0.25]
    deps += [Dep(f"n{j}", f"n{i}", ops[j].cycles, 1) for i in range(16) for j in range(i + 1, 16) if rnd.random() < 0.05]
    g = LoopGraph("t", tuple(ops), tuple(deps))
    return g, ModuloProblem.from_graph(g, {"tc": 1, "sfu": 1, "alu": 1})


def test_scip_stops_on_simplex_iterations_not_the_clock(busy):
    """SCIP at a millisecond of deterministic time (11 simplex iterations): interrupted by the work limit, a
    schedule without proof, the same twice; the modulo search records its budget."""
    g, p = _modulo_problem()
    q = ModuloAtII(p, 35, horizon(p, 35))
    a, b = (ScipModulo().solve(q, SolveOptions(time_limit=0.001)) for _ in range(2))
    assert a.status == "feasible" and a.stats["stopped_by"] == "work limit" and a.stats["solver_status"] == "userinterrupt"
    assert (a.values, a.stats["work"]) == (b.values, b.stats["work"])
    s = modulo_schedule(p, "scip", SolveOptions(time_limit=0.001))
    assert s.status == "feasible" and s.get("budget")["unit"] == "deterministic seconds" and verify(g, {"tc": 1, "sfu": 1, "alu": 1}, s) == []


def test_z3_stops_on_its_resource_count():
    """z3 with a few thousand ``rlimit`` a call: the check ends unknown on the work limit, the same twice."""
    from twill.solve.backends.z3_joint import Z3Joint

    g = random_loop(3)
    q = JointAtIL(JointProblem.from_graph(g, H100, scale=UNIT), 19, 26, 38)
    a, b = (Z3Joint().solve(q, SolveOptions(time_limit=0.0001)) for _ in range(2))
    assert a.status == "timeout" and a.stats["stopped_by"] == "work limit"
    assert [e["result"] for e in a.stats["lengths"]] == [e["result"] for e in b.stats["lengths"]]
    assert a.stats["work"] == pytest.approx(b.stats["work"], rel=0.05)
