"""Named modulo-scheduling problems with known answers, one line per backend."""
import pytest

from twill.graph.model import Dep, LoopGraph, Op, Reservation
from twill.schedule import text
from twill.schedule.model import Schedule
from twill.schedule.verify import verify
from twill.solve.bounds import mii
from twill.solve.brute import brute_min_ii
from twill.solve.modulo import modulo_schedule, refuted_iis
from twill.solve.problem import ModuloProblem, SolveOptions

BACKENDS = ["cpsat", "cpsat-slots", "scip"]
CAP = {"tc": 1, "sfu": 1, "alu": 1}


def op(i, unit, cycles=1, rrt=None):
    return Op(i, {"tc": "dot", "sfu": "sfu", "alu": "elementwise"}[unit], unit, cycles=cycles,
              rrt=rrt or (Reservation(unit, 0, cycles),))


def graph(ops, deps):
    by = {o.id: o for o in ops}
    return LoopGraph("t", tuple(ops), tuple(Dep(s, d, by[s].cycles, dist) for s, d, dist in deps))


# The paper's Figure 1: S = gemm(Q, K[i]); P = exp(S); O += gemm(P, V[i]); unit cycles, TC: 1, SFU: 1.
FIG1 = graph([op("S", "tc"), op("P", "sfu"), op("O", "tc")], [("S", "P", 0), ("P", "O", 0), ("O", "O", 1)])


def solve(g, backend, cap=CAP, **kw):
    s = modulo_schedule(ModuloProblem.from_graph(g, cap), backend, SolveOptions(time_limit=20), **kw)
    assert verify(g, cap, s) == []
    return s


@pytest.mark.parametrize("backend", BACKENDS)
def test_figure1_flash_attention(backend):
    s = solve(FIG1, backend)
    assert (s.ii, s.length, s.stages, s.status, s.lower_bound) == (2, 4, 2, "optimal", 2)
    # Figure 1d/1f: the two GEMMs share the TC in different slots; the steady state issues S of the
    # next iteration (stage 0) alongside O of the current one (stage 1): FA3's pipeline.
    assert s.at("S") % 2 != s.at("O") % 2
    assert s.stage_of("S") == 0 and s.stage_of("O") == 1
    steady = text.layout(FIG1, s).split("steady state")[1].split("epilogue")[0]
    assert "S[i]" in steady and "O[i-1]" in steady
    # The trace proves the II: MII = 2 was tried first and solved to optimality.
    assert [t["ii"] for t in s.get("trace")] == [2] and s.get("trace")[0]["status"] == "optimal"


def test_figure1_paper_schedule_renders_as_figure_1d_and_1f():
    # The paper's own schedule M = {S: 0, P: 2, O: 3}, I = 2, L = 4 passes the checker, and its
    # modular RRT and code shape are Figure 1d's and Figure 1f's.
    paper = Schedule(ii=2, length=4, start=(("S", 0), ("P", 2), ("O", 3)), status="feasible", lower_bound=2)
    assert verify(FIG1, {"tc": 1, "sfu": 1}, paper) == []
    rrt = text.reservation_table(FIG1, paper).splitlines()
    assert rrt[1].split() == ["0", "P", "S"] and rrt[2].split() == ["1", ".", "O"]    # columns sfu, tc
    shape = text.layout(FIG1, paper)
    assert "window 0: S[0]" in shape                                                  # prologue: S = gemm(Q, K[0])
    steady = shape.split("steady state")[1].split("epilogue")[0]
    assert [line.split(":")[1].split()[0] for line in steady.strip().splitlines()[1:]] == ["S[i]", "P[i-1]", "O[i-1]"]
    assert "window 1: P[N-1], O[N-1]" in shape                                        # epilogue
    # M(P) = 1, M(O) = 2 is dependence-valid but O collides with S on the TC (0 = 2 mod 2).
    bad = Schedule(ii=2, length=3, start=(("S", 0), ("P", 1), ("O", 2)), status="feasible", lower_bound=2)
    assert [v.family for v in verify(FIG1, {"tc": 1, "sfu": 1}, bad)] == ["capacity"]


# Textbook loops: (name, graph, capacity, optimal II, optimal L)
TEXTBOOK = [
    # a -> b -> c -> a with distance 2, 3 cycles each on separate units: RecMII = ceil(9 / 2) = 5.
    ("recurrence", graph([op("a", "tc", 3), op("b", "sfu", 3), op("c", "alu", 3)],
                         [("a", "b", 0), ("b", "c", 0), ("c", "a", 2)]), CAP, 5, 9),
    # Four independent 2-cycle ops on one unit: ResMII = 8, and the four need distinct slots in
    # [0, 8), so one iteration spans L = 8.
    ("resource", graph([op(f"x{i}", "tc", 2) for i in range(4)], []), CAP, 8, 8),
    # The same on a unit with 2 instances: ResMII = 4, L = 4.
    ("two-instances", graph([op(f"x{i}", "alu", 2) for i in range(4)], []), {"alu": 2}, 4, 4),
    # a -> c -> b -> a (distance 1), 1 cycle each: RecMII = 3 dominates ResMII = 2.
    ("rec-over-res", graph([op("a", "tc"), op("b", "tc"), op("c", "sfu")], [("a", "c", 0), ("c", "b", 0), ("b", "a", 1)]),
     CAP, 3, 3),
    # An op holding the TC in cycles 0 and 2 of its execution (non-contiguous RRT): ResMII = 2, but
    # at II = 2 both reservations fall in the same slot, so the optimum is II = 3 > MII.
    ("mii-not-achievable", graph([op("g", "tc", 3, rrt=(Reservation("tc", 0, 1), Reservation("tc", 2, 1)))], []),
     CAP, 3, 3),
    # Two chained GEMMs and an exp (Figure 1 without the accumulator recurrence): II = 2.
    ("no-recurrence", graph([op("S", "tc"), op("P", "sfu"), op("O", "tc")], [("S", "P", 0), ("P", "O", 0)]), CAP, 2, 4),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name,g,cap,ii,length", TEXTBOOK, ids=[t[0] for t in TEXTBOOK])
def test_textbook_loop(backend, name, g, cap, ii, length):
    s = solve(g, backend, cap)
    assert (s.ii, s.length, s.status) == (ii, length, "optimal")
    p = ModuloProblem.from_graph(g, cap)
    assert brute_min_ii(p)[:2] == (ii, length)
    assert s.ii >= mii(p)[0]
    # Every II below the answer and at or above MII was proved infeasible (one by one, or by a range
    # model), and the last step solved the answer's II on its own.
    assert refuted_iis(s.get("trace")) == set(range(mii(p)[0], ii))
    assert (s.get("trace")[-1]["ii"], s.get("trace")[-1]["status"]) == (ii, "optimal")
