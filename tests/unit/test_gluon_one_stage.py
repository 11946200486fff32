"""The Gluon route's last resort where ptxas spilled in the loop of every kernel it made (``gluon_route._in_one_stage``):
each warp-specialized split that made one is solved again through ``_tighten`` with every candidate in one stage,
until ptxas allocates one clean; a split whose wgmmas ptxas serialised, or one solved as the one partition (``_tighten``
tries that one in one stage itself), is not."""
from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pytest

from codegen.gluon.generate import PtxasReport
from twill import gluon_route
from twill.gluon_route import Candidate
from twill.schedule.model import Schedule

SPILLED = PtxasReport(registers=255, spill_stores=532, spill_loads=424, serialized="", spills_in_loop=73)
SERIALISED = PtxasReport(registers=255, spill_stores=0, spill_loads=0, serialized="insufficient register resources",
                         spills_in_loop=0)


@dataclasses.dataclass
class _Kernel:
    maxnreg: int | None = None
    plan: object = dataclasses.field(default_factory=lambda: SimpleNamespace(two_ctas=False))
    decisions: tuple[str, ...] = ()


def _made(graph: object, ptxas: PtxasReport, reg_limit: int) -> Candidate:
    schedule = Schedule(ii=202, length=380, start=(("dot", 0),), status="optimal", lower_bound=123)
    kernel = _Kernel()
    return Candidate(1, graph, graph, schedule, {"scale": 1.0}, reg_limit=reg_limit, kernel=kernel, ptxas=ptxas)


CLEAN = PtxasReport(registers=168, spill_stores=0, spill_loads=0, serialized="", spills_in_loop=0)


@pytest.fixture
def solved(monkeypatch):
    """The route's solves and builds replaced by a record of what was asked: each solve comes back clean."""
    asked = []

    def candidate(sp, machine, options, solve_opts, budget, hold, limit, lookahead=(), one_stage=False, **kw):
        asked.append((sp.name, hold, limit, one_stage))
        return _made(sp.graph, CLEAN, limit)

    monkeypatch.setattr(gluon_route, "_candidate", candidate)
    monkeypatch.setattr(gluon_route, "_generated", lambda c, kir, machine, options: c)
    monkeypatch.setattr(gluon_route, "_own_tiles", lambda c, *a: c)
    monkeypatch.setattr(gluon_route, "_fewer_stages", lambda c, *a: [c])
    monkeypatch.setattr(gluon_route, "_say_candidate", lambda c, say: None)
    monkeypatch.setattr(gluon_route, "consumer_reg_limit", lambda machine, warps: 216)
    monkeypatch.setattr(gluon_route, "ONE_STAGE_WHEN_SPILLED", True)
    return asked


def _split(name: str, one_partition: bool = False) -> SimpleNamespace:
    return SimpleNamespace(name=name, graph=SimpleNamespace(name=name, get=lambda k: 8), one_partition=one_partition,
                           nc=1)


def test_each_spilled_warp_specialized_split_is_solved_again_in_one_stage(solved):
    ws, other = _split("one consumer"), _split("two consumers")
    made = [_made(ws.graph, SPILLED, 216), _made(ws.graph, SPILLED, 200), _made(other.graph, SPILLED, 184)]
    out = gluon_route._in_one_stage([ws, other], made, None, None, None, None, 7.5, lambda line: None)
    # ``_tighten`` in one stage from the split's first limit, stopping at the first clean kernel
    assert solved == [("one consumer", True, 216, True), ("two consumers", True, 216, True)]
    assert [c.clean for c in out] == [True, True]
    assert all("one stage" in c.kernel.decisions[-1] for c in out)


def test_tighten_solves_a_warp_specialized_split_pipelined_unless_asked_for_one_stage(solved):
    ws = _split("one consumer")
    gluon_route._tighten(ws, None, None, None, None, 7.5, lambda line: None)
    gluon_route._tighten(ws, None, None, None, None, 7.5, lambda line: None, one_stage=True)
    assert solved == [("one consumer", True, 216, False), ("one consumer", True, 216, True)]


def test_a_split_with_serialised_wgmmas_or_solved_as_the_one_partition_is_not(solved):
    serialised, one, unsolved = _split("serialised"), _split("one partition", one_partition=True), _split("none")
    made = [_made(serialised.graph, SERIALISED, 216), _made(one.graph, SPILLED, 255),
            dataclasses.replace(_made(unsolved.graph, SPILLED, 216), kernel=None, ptxas=None)]
    assert gluon_route._in_one_stage([serialised, one, unsolved], made, None, None, None, None, 7.5,
                                     lambda line: None) == []
    assert solved == []


def test_it_can_be_turned_off(solved, monkeypatch):
    ws = _split("one consumer")
    monkeypatch.setattr(gluon_route, "ONE_STAGE_WHEN_SPILLED", False)
    assert gluon_route._in_one_stage([ws], [_made(ws.graph, SPILLED, 216)], None, None, None, None, 7.5,
                                     lambda line: None) == []
    assert solved == []


def test_a_search_inherits_only_what_a_looser_search_of_the_split_refuted():
    """(hold, limit, every I below refuted): a tighter limit, or operands held until retirement where the earlier
    search held them until issue, inherits; a looser problem does not (its schedules are not all the earlier one's)."""
    done = [(True, 216, 150), (False, 216, 202)]
    assert gluon_route._inherited(done, True, 200) == 202      # tighter than both
    assert gluon_route._inherited(done, False, 200) == 202     # tighter than (False, 216) only
    assert gluon_route._inherited([(True, 216, 150)], False, 200) == 0   # held until issue: looser than (True, ...)
    assert gluon_route._inherited(done, True, 232) == 0        # a higher limit
    assert gluon_route._inherited([], True, 200) == 0
