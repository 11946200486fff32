"""The independent checker catches each violation family (hand-made bad schedules)."""
from twill.graph.model import Dep, LoopGraph, Op, Reservation
from twill.schedule.model import Schedule
from twill.schedule.verify import verify

G = LoopGraph("t", (Op("a", "dot", "tc", cycles=2, rrt=(Reservation("tc", 0, 2),)),
                    Op("b", "dot", "tc", cycles=2, rrt=(Reservation("tc", 0, 2),)),
                    Op("c", "sfu", "sfu", cycles=1, rrt=(Reservation("sfu", 0, 1),))),
              (Dep("a", "c", 2, 0), Dep("c", "b", 1, 0), Dep("b", "a", 2, 1)))
CAP = {"tc": 1, "sfu": 1}


def sched(start, ii=5, length=6):
    return Schedule(ii=ii, length=length, start=tuple(start.items()), status="feasible", lower_bound=1)


def families(s):
    return sorted({v.family for v in verify(G, CAP, s)})


def test_valid_schedule_passes():
    assert verify(G, CAP, sched({"a": 0, "c": 2, "b": 3}, ii=5, length=5)) == []


def test_dependence_violation():
    v = verify(G, CAP, sched({"a": 0, "c": 1, "b": 3}))
    assert [x.family for x in v] == ["dependence"] and "a->c" in v[0].where and "expected" in str(v[0])


def test_loop_carried_dependence_violation():
    assert "dependence" in families(sched({"a": 0, "c": 2, "b": 3}, ii=4, length=6))


def test_capacity_violation():
    v = verify(G, CAP, sched({"a": 0, "c": 2, "b": 5}, ii=5, length=8))   # b at slot 0 like a
    assert "capacity" in {x.family for x in v}


def test_completion_violation():
    assert families(sched({"a": 0, "c": 2, "b": 3}, ii=5, length=4)) == ["completion"]


def test_missing_op():
    assert families(sched({"a": 0, "c": 2})) == ["coverage"]
